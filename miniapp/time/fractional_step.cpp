#include "miniapp/time/fractional_step.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {

FractionalStep::FractionalStep(const Executor& exec, DeviceOperators& ops, parallel::Subdomain& domain,
                               const FlowParameters& params, std::unique_ptr<PressureSolver> pressure_solver)
    : exec_(exec), ops_(ops), domain_(domain), params_(params), pressure_solver_(std::move(pressure_solver)),
      time_step_control_(exec, ops, domain, params.time_step, {face_work_, cell_work_, rhs_}) {
  const index_t cells = ops.volume.size();
  const index_t faces = ops.face_gradient.rows();
  for (int d = 0; d < 3; ++d) {
    u_pred_[d] = Vector(exec, cells);
    work_[d] = Vector(exec, cells);
  }
  rhs_ = Vector(exec, cells);
  cell_work_ = Vector(exec, cells);
  face_work_ = Vector(exec, faces);
  step_scalars_ = Vector(exec, step_slot_count);
  if (params.bulk_velocity) flow_rate_.emplace(exec, ops, domain, *params.bulk_velocity);
  // Sub-steps as graphs on one rank: on several, halo updates run MPI on the host inside sub-steps.
  for (int p = 0; p < phase_count; ++p) graphs_.emplace_back(exec, !domain.distributed());
  if (params.les != LesModel::none) {
    face_base_viscosity_ = Vector(exec, faces);
    fill(exec, params.viscosity, face_base_viscosity_);
    for (auto& g : gradient_) g = Vector(exec, cells);
    // Filter width Δ = Ω^{1/3}, computed once on the host.
    auto width = ops.volume.to_host();
    for (auto& w : width) w = std::cbrt(w);
    filter_width_ = Vector::from_host(exec, width);
  }
}

void FractionalStep::initialise(FlowFields& f) {
  // u_s = Γ u + u_bc, ν_s = ν (+ Π ν_t).
  spmv_interleaved(exec_, ops_.cell_to_face, std::array<const Vector*, 3>{&f.u[0], &f.u[1], &f.u[2]},
                   f.face_velocity);
  axpby(exec_, 1.0, ops_.boundary_face_velocity, 1.0, f.face_velocity);
  fill(exec_, params_.viscosity, f.face_viscosity);
  fill(exec_, 0.0, f.eddy_viscosity);
  if (params_.les != LesModel::none) update_eddy_viscosity(f);
  if (flow_rate_) flow_rate_->hold(f, 0.0);
  f.dt = stable_dt(f);
}

void FractionalStep::upload_step_scalars(const FlowFields& f) {
  const StepCoefficients c = step_coefficients(time_step_control_.kappa(), f.dt, f.dt_old);
  std::array<double, step_slot_count> s{};
  s[ab_current] = c.extrapolate_current;
  s[ab_previous] = c.extrapolate_previous;
  s[keep_current] = c.keep_current;
  s[keep_previous] = c.keep_previous;
  s[minus_dt] = -c.projection_dt;
  s[minus_inverse_dt] = -1.0 / c.projection_dt;
  for (int d = 0; d < 3; ++d) s[minus_driving_force + d] = -f.driving_force[d];
  projection_dt_ = c.projection_dt;
  step_scalars_.copy_from_host(s);
}

// The key of a recording: uⁿ's buffer, the one pointer of these sub-steps that alternates.
void FractionalStep::run_recorded(Phase phase, const FlowFields& f, StepMeter& meter, StepReport& report,
                                  const std::function<void()>& work) {
  const int p = static_cast<int>(phase);
  meter.measure(phase, report, [&] { report.replayed[p] = graphs_[p].run(f.u[0].data(), work); });
}

StepReport FractionalStep::advance(FlowFields& f) {
  StepMeter counting(exec_, false);
  return advance(f, counting);
}

// Thesis Algorithm 1. `meter` wraps each sub-step; the recorded ones (all but the solve and Δt) run
// as a graph replay where they can.
StepReport FractionalStep::advance(FlowFields& f, StepMeter& meter) {
  StepReport report;
  report.dt = f.dt;
  report.cfl = time_step_control_.stability_fraction();
  const auto recorded = [&](Phase phase, const std::function<void()>& work) { run_recorded(phase, f, meter, report, work); };
  const auto measured = [&](Phase phase, const std::function<void()>& work) { meter.measure(phase, report, work); };
  upload_step_scalars(f);
  recorded(Phase::predictor, [&] { predict(f); });
  recorded(Phase::poisson_rhs, [&] { assemble_pressure_rhs(); });
  measured(Phase::poisson_solve, [&] { report.poisson = solve_pressure(f); });
  // uⁿ becomes uⁿ⁻¹ (buffers swapped, nothing copied): host bookkeeping, outside any recording.
  for (int d = 0; d < 3; ++d) std::swap(f.u_old[d], f.u[d]);
  recorded(Phase::correction, [&] { correct(f); });
  recorded(Phase::face_velocity, [&] { update_face_velocity(f); });
  if (params_.les != LesModel::none) recorded(Phase::eddy_viscosity, [&] { update_eddy_viscosity(f); });
  f.time += f.dt;
  f.dt_old = f.dt;
  f.step += 1;
  measured(Phase::time_step, [&] {
    if (flow_rate_) flow_rate_->hold(f, projection_dt_);  // needs a host read: not in a recording
    f.dt = stable_dt(f);
  });
  meter.finish(report);
  return report;
}

// Step 1: uᵖ = uⁿ − Δt Ω⁻¹ (R(u_s, ν_s) w + s), w = (1 + r/2) uⁿ − (r/2) uⁿ⁻¹, r = Δtⁿ/Δtⁿ⁻¹
// (r = 0 on the first step: Euler); with a controller's κ ≠ ½ the κ-scheme's coefficients instead,
// and k_{n−1} uⁿ⁻¹ added. R's values: E_C u_s (+ E_D ν_s with LES) + D's values.
void FractionalStep::predict(FlowFields& f) {
  for (int d = 0; d < 3; ++d) waxpby(exec_, step_scalar(ab_current), f.u[d], step_scalar(ab_previous), f.u_old[d], work_[d]);

  ops_.momentum.refresh(exec_, f.face_velocity, f.face_viscosity);
  const Vector* w[] = {&work_[0], &work_[1], &work_[2]};
  Vector* rw[] = {&u_pred_[0], &u_pred_[1], &u_pred_[2]};
  spmv_multi(exec_, ops_.momentum.matrix, w, rw);
  for (int d = 0; d < 3; ++d) {
    if (ops_.has_sources) axpby(exec_, 1.0, ops_.constant_source[d], 1.0, u_pred_[d]);
    if (flow_rate_ && flow_rate_->direction()[d] != 0)  // s = −Ω f of the held flow rate's force
      axpby(exec_, step_scalar(static_cast<StepSlot>(minus_driving_force + d)), ops_.volume, 1.0, u_pred_[d]);
    if (!ops_.viscous_source.empty()) {
      spmv(exec_, ops_.viscous_source[d], f.face_viscosity, cell_work_);
      axpby(exec_, 1.0, cell_work_, 1.0, u_pred_[d]);
    }
    pointwise_multiply(exec_, ops_.inverse_volume, u_pred_[d], u_pred_[d]);
    waxpby(exec_, step_scalar(keep_current), f.u[d], step_scalar(minus_dt), u_pred_[d], u_pred_[d]);
    if (params_.time_step.max_kappa > adams_bashforth_kappa)
      axpby(exec_, step_scalar(keep_previous), f.u_old[d], 1.0, u_pred_[d]);
  }
  Vector* halo[] = {&u_pred_[0], &u_pred_[1], &u_pred_[2]};  // read by M Γ uᵖ and Γ uᵖ
  domain_.update_halo(halo);
}

// Step 2.1: b = −(1/Δt) (M Γ uᵖ + M u_bc).
void FractionalStep::assemble_pressure_rhs() {
  spmv(exec_, ops_.cell_divergence[0], u_pred_[0], rhs_);
  for (int d = 1; d < 3; ++d) {
    spmv(exec_, ops_.cell_divergence[d], u_pred_[d], cell_work_);
    axpby(exec_, 1.0, cell_work_, 1.0, rhs_);
  }
  axpby(exec_, step_scalar(minus_inverse_dt), ops_.boundary_divergence, step_scalar(minus_inverse_dt), rhs_);
}

// Step 2.2: −L p = b by the pressure solver (PCG from the previous pressure, or the FFT path).
PcgResult FractionalStep::solve_pressure(FlowFields& f) {
  const PcgResult result = pressure_solver_->solve(rhs_, f.pressure, f.step + 1);
  domain_.update_halo(f.pressure);  // read by G p and Gs p
  return result;
}

// Step 3: g = G p, uⁿ⁺¹ = uᵖ − Δt g, into the buffers that held uⁿ⁻¹ (advance swapped them).
void FractionalStep::correct(FlowFields& f) {
  for (int d = 0; d < 3; ++d) {
    spmv(exec_, ops_.cell_gradient[d], f.pressure, work_[d]);
    waxpby(exec_, 1.0, u_pred_[d], step_scalar(minus_dt), work_[d], f.u[d]);
  }
  Vector* halo[] = {&f.u[0], &f.u[1], &f.u[2]};  // read by ∇u and the next step's R w
  domain_.update_halo(halo);
}

// Step 4 (thesis eq. 2.9): u_s = Γ uⁿ⁺¹ − Δt (Gs p − Γ g) + u_bc = Γ uᵖ − Δt Gs p + u_bc.
void FractionalStep::update_face_velocity(FlowFields& f) {
  spmv_interleaved(exec_, ops_.cell_to_face, std::array<const Vector*, 3>{&u_pred_[0], &u_pred_[1], &u_pred_[2]},
                   f.face_velocity);
  spmv(exec_, ops_.face_gradient, f.pressure, face_work_);
  axpby(exec_, step_scalar(minus_dt), face_work_, 1.0, f.face_velocity);
  axpby(exec_, 1.0, ops_.boundary_face_velocity, 1.0, f.face_velocity);
}

// Step 5: ∇u by three generalized SpMVs (G_b on u, v, w), ν_t by the model, ν_s = ν + Π ν_t.
void FractionalStep::update_eddy_viscosity(FlowFields& f) {
  const Vector* u[] = {&f.u[0], &f.u[1], &f.u[2]};
  for (int b = 0; b < 3; ++b) {
    Vector* column[] = {&gradient_[b], &gradient_[3 + b], &gradient_[6 + b]};
    spmv_multi(exec_, ops_.cell_gradient[b], u, column);
  }
  std::array<const Vector*, 9> g;
  for (int i = 0; i < 9; ++i) g[i] = &gradient_[i];
  eddy_viscosity(exec_, params_.les, params_.les_constant, g, filter_width_, f.eddy_viscosity);
  domain_.update_halo(f.eddy_viscosity);  // read by Π ν_t
  spmv(exec_, ops_.face_interpolation, f.eddy_viscosity, f.face_viscosity);
  axpby(exec_, 1.0, face_base_viscosity_, 1.0, f.face_viscosity);
}

}  // namespace miniapp::time
