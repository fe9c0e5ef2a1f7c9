#include "miniapp/time/flow_diagnostics.hpp"

#include <vector>

#include "operators/kernels/dot.hpp"
#include "operators/kernels/flow_kernels.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {
namespace {

// At most 8 sums of 3 components in one evaluation (energies, the budget's forms, enstrophy).
constexpr index_t max_dots_per_evaluation = 24;

}  // namespace

// Dot products over the owned cells, queued max_fused_dots at a time as multi_dots whose results stay
// on the executor (in `results`), then read back together: one host read for all of an evaluation's
// dots. Each result is added, times a factor, into a host sum; the ranks' sums are reduced by the
// caller.
class FlowDiagnostics::DotBatch {
 public:
  DotBatch(const Executor& exec, const parallel::Subdomain& domain, Vector& results)
      : exec_(exec), domain_(domain), results_(results) {}

  // sum += factor · x·y once read (x and y must not change before the next flush).
  void add(const Vector& x, const Vector& y, double factor, double& sum) {
    if (targets_.size() == static_cast<std::size_t>(results_.size()))
      throw Error("FlowDiagnostics: more than " + std::to_string(results_.size()) + " dot products in one evaluation");
    x_.push_back(domain_.owned(x));
    y_.push_back(domain_.owned(y));
    targets_.push_back({factor, &sum});
    if (x_.size() == static_cast<std::size_t>(max_fused_dots)) flush();
  }
  // Queues the dots added since the last flush.
  void flush() {
    if (x_.empty()) return;
    std::vector<const Vector*> x, y;
    for (std::size_t i = 0; i < x_.size(); ++i) x.push_back(&x_[i]), y.push_back(&y_[i]);
    Vector into = results_.window(queued_, static_cast<index_t>(x_.size()));
    multi_dot(exec_, x, y, into);
    queued_ += static_cast<index_t>(x_.size());
    x_.clear(), y_.clear();
  }
  // Flushes, reads every result at once and adds them into their sums.
  void read() {
    flush();
    if (queued_ == 0) return;
    const std::vector<double> values = results_.window(0, queued_).to_host();
    for (std::size_t i = 0; i < targets_.size(); ++i) *targets_[i].sum += targets_[i].factor * values[i];
    targets_.clear();
    queued_ = 0;
  }

 private:
  struct Target {
    double factor;
    double* sum;
  };
  const Executor& exec_;
  const parallel::Subdomain& domain_;
  Vector& results_;
  std::vector<Vector> x_, y_;  // windows of the owned entries, not yet queued
  std::vector<Target> targets_;
  index_t queued_ = 0;
};

FlowDiagnostics::FlowDiagnostics(const Executor& exec, const DeviceOperators& ops, const parallel::Subdomain& domain,
                                 double viscosity)
    : exec_(exec),
      ops_(ops),
      domain_(domain),
      applied_diffusion_(ops.momentum.matrix.with_values(ops.momentum.diffusion_values)) {
  const index_t cells = ops.volume.size();
  for (auto& g : gradient_) g = Vector(exec, cells);
  for (auto& w : weighted_) w = Vector(exec, cells);
  cell_work_ = Vector(exec, cells);
  dot_results_ = Vector(exec, max_dots_per_evaluation);
  if (const auto& map = ops.momentum.diffusion_map) {
    // D(ν)'s values by the same coefficient map that gives D(ν_s)'s every step.
    Vector molecular_faces(exec, map->cols());
    fill(exec, viscosity, molecular_faces);
    molecular_values_ = Vector(exec, ops.momentum.diffusion_values.size());
    spmv(exec, *map, molecular_faces, molecular_values_);
    molecular_diffusion_.emplace(ops.momentum.matrix.with_values(molecular_values_));
  }
}

// Local sums over the owned cells, reduced over ranks together at the end.
struct FlowDiagnostics::LocalSums {
  double energy = 0, old_energy = 0, applied = 0, momentum = 0, source = 0, molecular = 0, enstrophy = 0;
};

// This rank's ½ Σ Ω |u|² into sum, queued on dots (u² in weighted_).
void FlowDiagnostics::add_energy(const std::array<Vector, 3>& u, DotBatch& dots, double& sum) {
  for (int d = 0; d < 3; ++d) pointwise_multiply(exec_, u[d], u[d], weighted_[d]);
  for (int d = 0; d < 3; ++d) dots.add(weighted_[d], ops_.volume, 0.5, sum);
  dots.flush();  // weighted_ is reused
}

// Kinetic energies of uⁿ and uⁿ⁻¹ and the quadratic forms of the budget at ū: ū in gradient_[0..2],
// D ū in [3..5], R ū = (C + D) ū in [6..8]. Eⁿ⁻¹ is the previous evaluation's Eⁿ when that was of
// the previous step (uⁿ⁻¹ is the buffer that held its uⁿ, unchanged since).
void FlowDiagnostics::sum_budget(const FlowFields& f, DotBatch& dots, LocalSums& sums) {
  add_energy(f.u, dots, sums.energy);
  if (f.step == 0 || !(f.dt_old > 0)) return;  // no step taken yet
  if (previous_energy_ && previous_energy_->step == f.step - 1) sums.old_energy = previous_energy_->local;
  else add_energy(f.u_old, dots, sums.old_energy);

  for (int d = 0; d < 3; ++d) waxpby(exec_, 0.5, f.u[d], 0.5, f.u_old[d], gradient_[d]);
  const Vector* midpoint[] = {&gradient_[0], &gradient_[1], &gradient_[2]};
  Vector* diffused[] = {&gradient_[3], &gradient_[4], &gradient_[5]};
  Vector* applied[] = {&gradient_[6], &gradient_[7], &gradient_[8]};
  spmv_multi(exec_, applied_diffusion_, midpoint, diffused);
  spmv_multi(exec_, ops_.momentum.matrix, midpoint, applied);
  for (int d = 0; d < 3; ++d) {
    dots.add(gradient_[d], gradient_[3 + d], 1.0, sums.applied);
    dots.add(gradient_[d], gradient_[6 + d], 1.0, sums.momentum);
    if (ops_.has_sources) dots.add(gradient_[d], ops_.constant_source[d], -1.0, sums.source);
    if (f.driving_force[d] != 0) dots.add(gradient_[d], ops_.volume, f.driving_force[d], sums.source);
  }
  dots.flush();  // D ū is overwritten
  if (molecular_diffusion_) {
    spmv_multi(exec_, *molecular_diffusion_, midpoint, diffused);
    for (int d = 0; d < 3; ++d) dots.add(gradient_[d], gradient_[3 + d], 1.0, sums.molecular);
    dots.flush();
  }
  // With LES, the wall and inlet diffusion source is applied to ν_s every step (now the updated one).
  for (std::size_t d = 0; d < ops_.viscous_source.size(); ++d) {
    spmv(exec_, ops_.viscous_source[d], f.face_viscosity, cell_work_);
    dots.add(gradient_[d], cell_work_, -1.0, sums.source);
    dots.flush();
  }
}

// ∇u by three generalized SpMVs.
const std::array<Vector, 9>& FlowDiagnostics::gradient(const FlowFields& f) {
  const Vector* u[] = {&f.u[0], &f.u[1], &f.u[2]};
  for (int b = 0; b < 3; ++b) {
    Vector* column[] = {&gradient_[b], &gradient_[3 + b], &gradient_[6 + b]};
    spmv_multi(exec_, ops_.cell_gradient[b], u, column);
  }
  return gradient_;
}

FlowIntegrals FlowDiagnostics::evaluate(const FlowFields& f) {
  LocalSums local;
  DotBatch dots(exec_, domain_, dot_results_);
  sum_budget(f, dots, local);
  gradient(f);
  // Enstrophy: ω = (g_zy − g_yz, g_xz − g_zx, g_yx − g_xy), ½ Σ Ω ω_d².
  waxpby(exec_, 1.0, gradient_[7], -1.0, gradient_[5], weighted_[0]);
  waxpby(exec_, 1.0, gradient_[2], -1.0, gradient_[6], weighted_[1]);
  waxpby(exec_, 1.0, gradient_[3], -1.0, gradient_[1], weighted_[2]);
  for (int d = 0; d < 3; ++d) {
    pointwise_multiply(exec_, weighted_[d], weighted_[d], weighted_[d]);
    dots.add(weighted_[d], ops_.volume, 0.5, local.enstrophy);
  }

  // Discrete continuity of the face velocity; its reduction waits for the queued dots too.
  FlowIntegrals out;
  spmv(exec_, ops_.divergence, f.face_velocity, cell_work_);
  pointwise_multiply(exec_, ops_.inverse_volume, cell_work_, cell_work_);
  dots.flush();
  const double local_max_divergence = max_abs(exec_, domain_.owned(cell_work_));
  dots.read();
  previous_energy_ = EnergyOfStep{f.step, local.energy};
  out.max_divergence = domain_.max(local_max_divergence);

  double sums[] = {local.energy, local.old_energy, local.applied, local.momentum, local.source, local.molecular,
                   local.enstrophy};
  domain_.sum(sums);
  const auto [energy, old_energy, applied, momentum, source, molecular, enstrophy] = sums;
  out.kinetic_energy = energy;
  out.enstrophy = enstrophy;
  if (f.step == 0 || !(f.dt_old > 0)) return out;
  EnergyBudget& b = out.budget;
  b.decay_rate = (old_energy - energy) / f.dt_old;
  b.viscous = molecular_diffusion_ ? molecular : applied;
  b.model = molecular_diffusion_ ? applied - molecular : 0.0;
  b.source_power = source;
  b.convection_power = -(momentum - applied);
  return out;
}

}  // namespace miniapp::time
