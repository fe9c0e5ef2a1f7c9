#pragma once
#include <array>
#include <functional>
#include <memory>
#include <optional>

#include "miniapp/time/device_operators.hpp"
#include "miniapp/time/flow_fields.hpp"
#include "miniapp/time/result_batch.hpp"
#include "parallel/subdomain.hpp"

namespace miniapp::time {

// Where the kinetic energy of the last step went, from the operators the scheme applied in it,
// evaluated at the step's midpoint ū = ½(uⁿ + uⁿ⁻¹), for which Eⁿ − Eⁿ⁻¹ = ūᵀ Ω (uⁿ − uⁿ⁻¹) exactly.
// The step solved Ω(uⁿ − uⁿ⁻¹)/Δt = −(C + D) w − s − Ω G p (w the Adams–Bashforth extrapolation), so
//   −dE/dt = viscous + model − source_power − convection_power + numerical,
// where numerical is what neither operator accounts for: the extrapolation of the explicit terms and
// the collocated projection (ū is not discretely divergence-free, so ūᵀ Ω G p ≠ 0).
struct EnergyBudget {
  double decay_rate = 0;        // −(Eⁿ − Eⁿ⁻¹) / Δt
  double viscous = 0;           // ūᵀ D(ν) ū: the molecular diffusion operator
  double model = 0;             // ūᵀ (D(ν_s) − D(ν)) ū: the LES model's share of the applied D
  double source_power = 0;      // −ūᵀ s: body force, moving walls, inlets
  double convection_power = 0;  // −ūᵀ C ū: 0 in a closed domain (C skew-symmetric), the flux of open ones
  double numerical() const { return decay_rate - viscous - model + source_power + convection_power; }
};

// Integral quantities of the flow, evaluated on the executor after a step (an observer: its kernels
// are not part of the step's cost).
struct FlowIntegrals {
  double kinetic_energy = 0;  // ½ Σ Ω |u|²
  EnergyBudget budget;        // of the last step; zeros before the first
  // Each a pass over the mesh of its own (the velocity gradient, the face divergence), so evaluated
  // only when asked for.
  std::optional<double> enstrophy;       // ½ Σ Ω |ω|², ω = ∇ × u
  std::optional<double> max_divergence;  // max_i |(M u_s)_i| / Ω_i
};

class FlowDiagnostics {
 public:
  // The most results one evaluation puts in a ResultBatch (energies, the budget's forms, sources,
  // enstrophy, maximum divergence).
  static constexpr index_t max_results = 32;

  // Sums and maxima run over the owned cells of `domain`'s ranks (collective); `domain` and `ops`
  // must outlive this object. `viscosity`: the molecular ν (the model's share is D(ν_s) − D(ν)).
  // `step_gradient`: ∇u of the fields evaluate is given, where the step already holds it (the LES
  // model's, FractionalStep::velocity_gradient), so that neither the enstrophy nor the gradient's
  // columns cost a gradient of their own; it must outlive this object.
  FlowDiagnostics(const Executor& exec, const DeviceOperators& ops, const parallel::Subdomain& domain,
                  double viscosity, const std::array<Vector, 9>* step_gradient = nullptr);
  ~FlowDiagnostics();

  // Needs current halos of u (the budget's operators and ∇u read them), and the operators' values of
  // the step that produced `fields` (as advance leaves them). The energy and the budget cost one pass
  // over the momentum pattern (energy_forms); `with_gradient_terms` adds the enstrophy and the maximum
  // divergence. One host read.
  FlowIntegrals evaluate(const FlowFields& fields, bool with_gradient_terms = true);
  // evaluate in two halves around the host read of a batch that other observers share: queue queues
  // the kernels, their results in `batch` (at most max_results); once batch.read() has run, finish
  // reduces over ranks and gives the integrals of the same fields.
  void queue(const FlowFields& fields, bool with_gradient_terms, ResultBatch& batch);
  FlowIntegrals finish(const FlowFields& fields, const ResultBatch& batch);
  // The velocity gradient g_ab = ∂u_a/∂x_b of `fields` (needs current halos of u), handed to `take`
  // one column b at a time, {g_0b, g_1b, g_2b}, each valid during its call only: the step's where it
  // holds one, else taken into the enstrophy's three work vectors. Not while an evaluation is queued.
  using GradientColumn = std::array<const Vector*, 3>;
  void for_each_gradient_column(const FlowFields& fields, const std::function<void(int b, const GradientColumn&)>& take);

 private:
  // Local sums over the owned cells (the maximum divergence: this rank's), reduced over ranks together.
  struct LocalSums {
    double energy = 0, old_energy = 0, applied = 0, momentum = 0, source = 0, molecular = 0, enstrophy = 0,
           max_divergence = 0;
  };
  class DotBatch;
  // This rank's kinetic energies and budget terms, queued on `dots`; uses cell_work_.
  void sum_budget(const FlowFields& f, DotBatch& dots, LocalSums& sums);
  // This rank's enstrophy, queued on `dots`; uses weighted_.
  void sum_enstrophy(const FlowFields& f, DotBatch& dots, LocalSums& sums);
  // This rank's max |M u_s| / Ω, queued on `dots`; uses cell_work_.
  void max_divergence(const FlowFields& f, DotBatch& dots, LocalSums& sums);

  Executor exec_;
  const DeviceOperators& ops_;
  const parallel::Subdomain& domain_;
  const std::array<Vector, 9>* step_gradient_;
  std::array<Vector, 3> weighted_;
  Vector cell_work_;
  ResultBatch own_results_;  // evaluate's
  // Between queue and finish: the queued results and the sums they go to.
  LocalSums pending_sums_;
  std::unique_ptr<DotBatch> pending_;
  bool pending_gradient_terms_ = false;
  // This rank's kinetic energy at the last evaluation: the next step's Eⁿ⁻¹.
  struct EnergyOfStep {
    long step;
    double local;
  };
  std::optional<EnergyOfStep> previous_energy_;
  // With LES: D(ν)'s values on the momentum pattern (D(ν_s)'s are the operator's own).
  Vector molecular_values_;
};

}  // namespace miniapp::time
