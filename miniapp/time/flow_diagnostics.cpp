#include "miniapp/time/flow_diagnostics.hpp"

#include <vector>

#include "operators/kernels/dot.hpp"
#include "operators/kernels/flow_kernels.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {
namespace {

// Dot products over the owned cells, gathered max_fused_dots at a time into one multi_dot (one host
// read each) and added, times a factor, into sums; the ranks' sums are reduced by the caller.
class DotBatch {
 public:
  DotBatch(const Executor& exec, const parallel::Subdomain& domain) : exec_(exec), domain_(domain) {}

  // sum += factor · x·y, computed at the next flush (x and y must not change before it).
  void add(const Vector& x, const Vector& y, double factor, double& sum) {
    x_.push_back(domain_.owned(x));
    y_.push_back(domain_.owned(y));
    targets_.push_back({factor, &sum});
    if (targets_.size() == static_cast<std::size_t>(max_fused_dots)) flush();
  }
  void flush() {
    if (targets_.empty()) return;
    std::vector<const Vector*> x, y;
    for (std::size_t i = 0; i < targets_.size(); ++i) x.push_back(&x_[i]), y.push_back(&y_[i]);
    std::vector<double> out(targets_.size());
    multi_dot(exec_, x, y, out);
    for (std::size_t i = 0; i < targets_.size(); ++i) *targets_[i].sum += targets_[i].factor * out[i];
    x_.clear(), y_.clear(), targets_.clear();
  }

 private:
  struct Target {
    double factor;
    double* sum;
  };
  const Executor& exec_;
  const parallel::Subdomain& domain_;
  std::vector<Vector> x_, y_;  // windows of the owned entries
  std::vector<Target> targets_;
};

}  // namespace

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

// Kinetic energies of uⁿ and uⁿ⁻¹ and the quadratic forms of the budget at ū: ū in gradient_[0..2],
// D ū in [3..5], R ū = (C + D) ū in [6..8], squares of the velocities in weighted_.
void FlowDiagnostics::sum_budget(const FlowFields& f, LocalSums& sums) {
  DotBatch dots(exec_, domain_);
  for (int d = 0; d < 3; ++d) pointwise_multiply(exec_, f.u[d], f.u[d], weighted_[d]);
  for (int d = 0; d < 3; ++d) dots.add(weighted_[d], ops_.volume, 0.5, sums.energy);
  dots.flush();
  if (f.step == 0 || !(f.dt_old > 0)) return;  // no step taken yet

  for (int d = 0; d < 3; ++d) waxpby(exec_, 0.5, f.u[d], 0.5, f.u_old[d], gradient_[d]);
  const Vector* midpoint[] = {&gradient_[0], &gradient_[1], &gradient_[2]};
  Vector* diffused[] = {&gradient_[3], &gradient_[4], &gradient_[5]};
  Vector* applied[] = {&gradient_[6], &gradient_[7], &gradient_[8]};
  spmv_multi(exec_, applied_diffusion_, midpoint, diffused);
  spmv_multi(exec_, ops_.momentum.matrix, midpoint, applied);
  for (int d = 0; d < 3; ++d) pointwise_multiply(exec_, f.u_old[d], f.u_old[d], weighted_[d]);
  for (int d = 0; d < 3; ++d) {
    dots.add(weighted_[d], ops_.volume, 0.5, sums.old_energy);
    dots.add(gradient_[d], gradient_[3 + d], 1.0, sums.applied);
    dots.add(gradient_[d], gradient_[6 + d], 1.0, sums.momentum);
    if (ops_.has_sources) dots.add(gradient_[d], ops_.constant_source[d], -1.0, sums.source);
  }
  dots.flush();
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
  sum_budget(f, local);
  gradient(f);
  // Enstrophy: ω = (g_zy − g_yz, g_xz − g_zx, g_yx − g_xy), ½ Σ Ω ω_d².
  waxpby(exec_, 1.0, gradient_[7], -1.0, gradient_[5], weighted_[0]);
  waxpby(exec_, 1.0, gradient_[2], -1.0, gradient_[6], weighted_[1]);
  waxpby(exec_, 1.0, gradient_[3], -1.0, gradient_[1], weighted_[2]);
  DotBatch dots(exec_, domain_);
  for (int d = 0; d < 3; ++d) {
    pointwise_multiply(exec_, weighted_[d], weighted_[d], weighted_[d]);
    dots.add(weighted_[d], ops_.volume, 0.5, local.enstrophy);
  }
  dots.flush();

  // Discrete continuity of the face velocity.
  FlowIntegrals out;
  spmv(exec_, ops_.divergence, f.face_velocity, cell_work_);
  pointwise_multiply(exec_, ops_.inverse_volume, cell_work_, cell_work_);
  out.max_divergence = domain_.max(max_abs(exec_, domain_.owned(cell_work_)));

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
