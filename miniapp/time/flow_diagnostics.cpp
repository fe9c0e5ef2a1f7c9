#include "miniapp/time/flow_diagnostics.hpp"

#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

#include "operators/kernels/dot.hpp"
#include "operators/kernels/energy_forms.hpp"
#include "operators/kernels/flow_kernels.hpp"
#include "operators/kernels/fused_spmv.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {

// Dot products over the owned cells, queued max_fused_dots at a time as multi_dots, and the results
// of other kernels, all in a ResultBatch: each result is added, times a factor, into a host sum once
// the batch is read (collect); the ranks' sums are reduced by the caller.
class FlowDiagnostics::DotBatch {
 public:
  DotBatch(const Executor& exec, const parallel::Subdomain& domain, ResultBatch& results)
      : exec_(exec), domain_(domain), results_(results) {}

  // sum += factor · x·y once read (x and y must not change before the next flush).
  void add(const Vector& x, const Vector& y, double factor, double& sum) {
    x_.push_back(domain_.owned(x));
    y_.push_back(domain_.owned(y));
    queued_.push_back({factor, &sum, 0});
    if (x_.size() == static_cast<std::size_t>(max_fused_dots)) flush();
  }
  // The window of `targets.size()` results that a kernel other than multi_dot writes (after the dots
  // queued so far), each added times its factor into its sum once read.
  Vector reserve(std::initializer_list<std::pair<double, double*>> targets) {
    flush();
    const ResultBatch::Slot slot = results_.reserve(static_cast<index_t>(targets.size()));
    index_t at = slot.first;
    for (const auto& [factor, sum] : targets) targets_.push_back({factor, sum, at++});
    return results_.window(slot);
  }
  // Queues the dots added since the last flush.
  void flush() {
    if (x_.empty()) return;
    std::vector<const Vector*> x, y;
    for (std::size_t i = 0; i < x_.size(); ++i) x.push_back(&x_[i]), y.push_back(&y_[i]);
    const ResultBatch::Slot slot = results_.reserve(static_cast<index_t>(x_.size()));
    Vector into = results_.window(slot);
    multi_dot(exec_, x, y, into);
    for (std::size_t i = 0; i < queued_.size(); ++i)
      targets_.push_back({queued_[i].factor, queued_[i].sum, slot.first + static_cast<index_t>(i)});
    x_.clear(), y_.clear(), queued_.clear();
  }
  // After the batch's read: adds every result into its sum.
  void collect(const ResultBatch& read) const {
    for (const Target& t : targets_) *t.sum += t.factor * read.values({t.result, 1})[0];
  }

 private:
  struct Target {
    double factor;
    double* sum;
    index_t result;  // the entry of the batch
  };
  const Executor& exec_;
  const parallel::Subdomain& domain_;
  ResultBatch& results_;
  std::vector<Vector> x_, y_;  // windows of the owned entries, not yet queued
  std::vector<Target> queued_;  // their targets
  std::vector<Target> targets_;
};

FlowDiagnostics::FlowDiagnostics(const Executor& exec, const DeviceOperators& ops, const parallel::Subdomain& domain,
                                 double viscosity, const std::array<Vector, 9>* step_gradient)
    : exec_(exec), ops_(ops), domain_(domain), step_gradient_(step_gradient), own_results_(exec, max_results) {
  const index_t cells = ops.volume.size();
  for (auto& w : weighted_) w = Vector(exec, cells);
  cell_work_ = Vector(exec, cells);
  if (const auto& map = ops.momentum.diffusion_map) {
    // D(ν)'s values by the same coefficient map that gives D(ν_s)'s every step.
    Vector molecular_faces(exec, map->cols());
    fill(exec, viscosity, molecular_faces);
    molecular_values_ = Vector(exec, ops.momentum.diffusion_values.size());
    spmv(exec, *map, molecular_faces, molecular_values_);
  }
}

FlowDiagnostics::~FlowDiagnostics() = default;

// Kinetic energies of uⁿ and uⁿ⁻¹ and the quadratic forms of the budget at ū = ½(uⁿ + uⁿ⁻¹): ūᵀ D ū,
// with LES ūᵀ D(ν) ū, and ūᵀ R ū (R = C + D) from D's off-diagonal entries and R's diagonal (C's
// off-diagonal entries are skew, so they add nothing), with Eⁿ, in one energy_forms pass; the sources'
// power as dots with uⁿ and uⁿ⁻¹ (ū is never formed). Eⁿ⁻¹ is the previous evaluation's Eⁿ when that
// was of the previous step (uⁿ⁻¹ is the buffer that held its uⁿ, unchanged since), else the same
// kernel's energy of uⁿ⁻¹ (the same sum, bitwise).
void FlowDiagnostics::sum_budget(const FlowFields& f, DotBatch& dots, LocalSums& sums) {
  const std::array<const Vector*, 3> u{&f.u[0], &f.u[1], &f.u[2]};
  const std::array<const Vector*, 3> u_old{&f.u_old[0], &f.u_old[1], &f.u_old[2]};
  const DeviceSell& r = ops_.momentum.matrix;
  const index_t owned = domain_.owned_count();
  if (f.step == 0 || !(f.dt_old > 0)) {  // no step taken yet: the energy alone
    Vector out = dots.reserve({{0.5, &sums.energy}});
    energy_forms(exec_, r, {}, nullptr, u, u, ops_.volume, owned, out);
    return;
  }
  if (previous_energy_ && previous_energy_->step == f.step - 1) {
    sums.old_energy = previous_energy_->local;
  } else {
    Vector out = dots.reserve({{0.5, &sums.old_energy}});
    energy_forms(exec_, r, {}, nullptr, u_old, u_old, ops_.volume, owned, out);
  }
  // Eⁿ, ūᵀ D(ν_s) ū, with LES ūᵀ D(ν) ū, then ūᵀ R ū (energy_forms' order of results).
  const bool les = molecular_values_.size() > 0;
  const Vector* values[] = {&ops_.momentum.diffusion_values, &molecular_values_};
  Vector out = les ? dots.reserve({{0.5, &sums.energy}, {1.0, &sums.applied}, {1.0, &sums.molecular}, {1.0, &sums.momentum}})
                   : dots.reserve({{0.5, &sums.energy}, {1.0, &sums.applied}, {1.0, &sums.momentum}});
  energy_forms(exec_, r, std::span(values, les ? 2 : 1), &r.values(), u, u_old, ops_.volume, owned, out);
  for (int d = 0; d < 3; ++d) {
    for (const Vector* v : {&f.u[d], &f.u_old[d]}) {
      if (ops_.has_sources) dots.add(*v, ops_.constant_source[d], -0.5, sums.source);
      if (f.driving_force[d] != 0) dots.add(*v, ops_.volume, 0.5 * f.driving_force[d], sums.source);
    }
  }
  // With LES, the wall and inlet diffusion source is applied to ν_s every step (now the updated one).
  for (std::size_t d = 0; d < ops_.viscous_source.size(); ++d) {
    spmv(exec_, ops_.viscous_source[d], f.face_viscosity, cell_work_);
    dots.add(f.u[d], cell_work_, -0.5, sums.source);
    dots.add(f.u_old[d], cell_work_, -0.5, sums.source);
    dots.flush();  // cell_work_ is overwritten
  }
}

void FlowDiagnostics::for_each_gradient_column(const FlowFields& f,
                                               const std::function<void(int, const GradientColumn&)>& take) {
  if (pending_) throw Error("FlowDiagnostics::for_each_gradient_column: an evaluation is queued (finish it first)");
  const Vector* u[] = {&f.u[0], &f.u[1], &f.u[2]};
  for (int b = 0; b < 3; ++b) {
    if (step_gradient_) {
      const std::array<Vector, 9>& g = *step_gradient_;
      take(b, {&g[b], &g[3 + b], &g[6 + b]});
      continue;
    }
    Vector* column[] = {&weighted_[0], &weighted_[1], &weighted_[2]};
    spmv_multi(exec_, ops_.cell_gradient[b], u, column);
    take(b, {&weighted_[0], &weighted_[1], &weighted_[2]});
  }
}

// Enstrophy ½ Σ Ω |ω|², ω = (∂w/∂y − ∂v/∂z, ∂u/∂z − ∂w/∂x, ∂v/∂x − ∂u/∂y): from the step's gradient
// where it holds one, else each component by an SpMV and an SpMV fused with the difference (G_b
// twice each: no arrays for the six derivatives); then Σ Ω |ω|² by energy_forms' energy (no values),
// one pass.
void FlowDiagnostics::sum_enstrophy(const FlowFields& f, DotBatch& dots, LocalSums& sums) {
  if (step_gradient_) {
    const std::array<Vector, 9>& g = *step_gradient_;  // g_ab at 3a + b
    waxpby(exec_, 1.0, g[7], -1.0, g[5], weighted_[0]);
    waxpby(exec_, 1.0, g[2], -1.0, g[6], weighted_[1]);
    waxpby(exec_, 1.0, g[3], -1.0, g[1], weighted_[2]);
  } else {
    // ω_c = ∂u_a/∂x_b − ∂u_a'/∂x_b' as {a, b, a', b'}.
    constexpr int terms[3][4] = {{2, 1, 1, 2}, {0, 2, 2, 0}, {1, 0, 0, 1}};
    for (int c = 0; c < 3; ++c) {
      const auto [a, b, a2, b2] = terms[c];
      spmv(exec_, ops_.cell_gradient[b], f.u[a], weighted_[c]);
      spmv_axpby(exec_, ops_.cell_gradient[b2], f.u[a2], 1.0, weighted_[c], -1.0, weighted_[c]);
    }
  }
  const std::array<const Vector*, 3> vorticity{&weighted_[0], &weighted_[1], &weighted_[2]};
  Vector out = dots.reserve({{0.5, &sums.enstrophy}});
  energy_forms(exec_, ops_.momentum.matrix, {}, nullptr, vorticity, vorticity, ops_.volume, domain_.owned_count(), out);
}

// Discrete continuity of the face velocity.
void FlowDiagnostics::max_divergence(const FlowFields& f, DotBatch& dots, LocalSums& sums) {
  spmv(exec_, ops_.divergence, f.face_velocity, cell_work_);
  pointwise_multiply(exec_, ops_.inverse_volume, cell_work_, cell_work_);
  Vector out = dots.reserve({{1.0, &sums.max_divergence}});
  max_abs(exec_, domain_.owned(cell_work_), out);
}

void FlowDiagnostics::queue(const FlowFields& f, bool with_gradient_terms, ResultBatch& batch) {
  pending_sums_ = LocalSums{};
  pending_gradient_terms_ = with_gradient_terms;
  pending_ = std::make_unique<DotBatch>(exec_, domain_, batch);
  sum_budget(f, *pending_, pending_sums_);
  if (with_gradient_terms) {
    sum_enstrophy(f, *pending_, pending_sums_);
    max_divergence(f, *pending_, pending_sums_);
  }
  pending_->flush();
}

FlowIntegrals FlowDiagnostics::finish(const FlowFields& f, const ResultBatch& batch) {
  if (!pending_) throw Error("FlowDiagnostics::finish: no evaluation queued");
  pending_->collect(batch);
  pending_.reset();
  const LocalSums& local = pending_sums_;
  previous_energy_ = EnergyOfStep{f.step, local.energy};

  FlowIntegrals out;
  if (pending_gradient_terms_) out.max_divergence = domain_.max(local.max_divergence);
  double sums[] = {local.energy, local.old_energy, local.applied, local.momentum, local.source, local.molecular,
                   local.enstrophy};
  domain_.sum(sums);
  const auto [energy, old_energy, applied, momentum, source, molecular, enstrophy] = sums;
  out.kinetic_energy = energy;
  if (pending_gradient_terms_) out.enstrophy = enstrophy;
  if (f.step == 0 || !(f.dt_old > 0)) return out;
  const bool les = molecular_values_.size() > 0;
  EnergyBudget& b = out.budget;
  b.decay_rate = (old_energy - energy) / f.dt_old;
  b.viscous = les ? molecular : applied;
  b.model = les ? applied - molecular : 0.0;
  b.source_power = source;
  b.convection_power = -(momentum - applied);
  return out;
}

FlowIntegrals FlowDiagnostics::evaluate(const FlowFields& f, bool with_gradient_terms) {
  queue(f, with_gradient_terms, own_results_);
  own_results_.read();
  return finish(f, own_results_);
}

}  // namespace miniapp::time
