#pragma once
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "miniapp/time/device_operators.hpp"
#include "miniapp/time/flow_fields.hpp"
#include "miniapp/time/flow_rate_hold.hpp"
#include "miniapp/time/pressure_solver.hpp"
#include "miniapp/time/step_meter.hpp"
#include "miniapp/time/step_report.hpp"
#include "miniapp/time/sub_step_graph.hpp"
#include "miniapp/time/time_step_control.hpp"
#include "operators/kernels/flow_kernels.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "parallel/subdomain.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::time {

struct FlowParameters {
  double viscosity = 0;  // ν, kinematic
  LesModel les = LesModel::none;
  double les_constant = 0;
  TimeStepOptions time_step;
  // Held bulk velocity U e (physics.bulk_velocity): the driving force adjusts to keep it (FlowRateHold).
  std::optional<Vec3> bulk_velocity;
};

// The fractional-step (projection) integrator of thesis Algorithm 1, on any backend: one method per
// sub-step, each only front-end kernel calls. docs/discretisation.md gives the math.
class FractionalStep {
 public:
  // Step 2.2 by `pressure_solver`. `domain`: this rank's cells
  // (Subdomain(cells) for one rank); it must outlive the integrator. Cell vectors hold owned-then-halo
  // entries; the integrator updates the halos of uᵖ, p, u and ν_t where the next sub-step reads them.
  FractionalStep(const Executor& exec, DeviceOperators& ops, parallel::Subdomain& domain, const FlowParameters& params,
                 std::unique_ptr<PressureSolver> pressure_solver);

  // Advances `fields` by one step of fields.dt and sets fields.dt for the next one; `meter` is wrapped
  // around each sub-step (the second form: kernels counted, phases untimed).
  StepReport advance(FlowFields& fields, StepMeter& meter);
  StepReport advance(FlowFields& fields);

  // Face velocity and viscosity consistent with the cell velocity (start of a run; u's halo must be
  // current): u_s = Γ u + u_bc,
  // ν_s from the LES model; then the first Δt.
  void initialise(FlowFields& fields);

  // Δt by the time-step controller for the current u_s and ν_s; it remembers the stability fraction
  // that this Δt gives (reported for the step that uses it).
  double stable_dt(const FlowFields& fields) { return time_step_control_.stable_dt(fields); }

  // ∇u of the current velocity (g_ab at index 3a + b) as the LES model's sub-step left it, valid after
  // initialise and each advance; nullptr without a model.
  const std::array<Vector, 9>* velocity_gradient() const {
    return params_.les != LesModel::none ? &gradient_ : nullptr;
  }

  PressureSolver& pressure_solver() { return *pressure_solver_; }
  const PressureSolver& pressure_solver() const { return *pressure_solver_; }

 private:
  void predict(FlowFields& f);
  void assemble_pressure_rhs();
  PcgResult solve_pressure(FlowFields& f);
  void correct(FlowFields& f);
  void update_face_velocity(FlowFields& f);
  void update_eddy_viscosity(FlowFields& f);
  // The Δt-dependent coefficients of the step about to run, into step_scalars_.
  void upload_step_scalars(const FlowFields& f);
  // Runs a sub-step under `meter`, replayed from its graph where it can be (sub_step_graph.hpp).
  void run_recorded(Phase phase, const FlowFields& f, StepMeter& meter, StepReport& report,
                    const std::function<void()>& work);

  // Slots of step_scalars_: what the sub-steps take from executor memory, so that a recorded
  // sub-step replays with the current Δt: StepCoefficients (time_step_control.hpp); minus_dt is −β,
  // which is −Δt for AB2.
  enum StepSlot {
    ab_current, ab_previous, keep_current, keep_previous, minus_dt, minus_inverse_dt,
    minus_driving_force, step_slot_count = minus_driving_force + 3  // −f_d of the held flow rate, per component
  };
  Coefficient step_scalar(StepSlot slot) const { return entry_of(step_scalars_, slot); }

  Executor exec_;
  DeviceOperators& ops_;  // the momentum values are rewritten every step
  parallel::Subdomain& domain_;
  FlowParameters params_;
  std::unique_ptr<PressureSolver> pressure_solver_;

  // Work vectors, allocated once.
  std::array<Vector, 3> u_pred_, work_;
  Vector rhs_, cell_work_, face_work_;
  Vector face_base_viscosity_, filter_width_;  // with LES only (ν on the faces, Δ = Ω^{1/3})
  std::array<Vector, 9> gradient_;
  Vector step_scalars_;
  std::vector<SubStepGraph> graphs_;  // per Phase
  TimeStepControl time_step_control_;  // writes face_work_, cell_work_ and rhs_
  std::optional<FlowRateHold> flow_rate_;
  double projection_dt_ = 0;  // β of the step being taken
};

}  // namespace miniapp::time
