#include "miniapp/time/flow_diagnostics.hpp"

#include "operators/kernels/dot.hpp"
#include "operators/kernels/flow_kernels.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {

FlowDiagnostics::FlowDiagnostics(const Executor& exec, const DeviceOperators& ops, const parallel::Subdomain& domain,
                                 double viscosity)
    : exec_(exec), ops_(ops), domain_(domain) {
  const index_t cells = ops.volume.size();
  for (auto& g : gradient_) g = Vector(exec, cells);
  for (auto& w : weighted_) w = Vector(exec, cells);
  weight_ = Vector(exec, cells);
  cell_work_ = Vector(exec, cells);
  molecular_viscosity_ = Vector(exec, cells);
  fill(exec, viscosity, molecular_viscosity_);
}

// Products are formed over all local cells (halo included: cheaper than windows for each), sums and
// maxima over the owned ones, then reduced over ranks in one allreduce for the sums.
FlowIntegrals FlowDiagnostics::evaluate(const FlowFields& f) {
  FlowIntegrals out;
  const auto owned_dot = [&](const Vector& x, const Vector& y) {
    return dot(exec_, domain_.owned(x), domain_.owned(y));
  };
  // Kinetic energy: ½ Σ_d u_d · (Ω ∘ u_d).
  for (int d = 0; d < 3; ++d) pointwise_multiply(exec_, ops_.volume, f.u[d], weighted_[d]);
  {
    const Vector u0 = domain_.owned(f.u[0]), u1 = domain_.owned(f.u[1]), u2 = domain_.owned(f.u[2]);
    const Vector w0 = domain_.owned(weighted_[0]), w1 = domain_.owned(weighted_[1]), w2 = domain_.owned(weighted_[2]);
    const Vector* x[] = {&u0, &u1, &u2};
    const Vector* y[] = {&w0, &w1, &w2};
    double e[3];
    multi_dot(exec_, x, y, e);
    out.kinetic_energy = 0.5 * (e[0] + e[1] + e[2]);
  }

  // ∇u by three generalized SpMVs.
  const Vector* u[] = {&f.u[0], &f.u[1], &f.u[2]};
  for (int b = 0; b < 3; ++b) {
    Vector* column[] = {&gradient_[b], &gradient_[3 + b], &gradient_[6 + b]};
    spmv_multi(exec_, ops_.cell_gradient[b], u, column);
  }

  // Enstrophy: ω = (g_zy − g_yz, g_xz − g_zx, g_yx − g_xy).
  waxpby(exec_, 1.0, gradient_[7], -1.0, gradient_[5], weighted_[0]);
  waxpby(exec_, 1.0, gradient_[2], -1.0, gradient_[6], weighted_[1]);
  waxpby(exec_, 1.0, gradient_[3], -1.0, gradient_[1], weighted_[2]);
  double omega_sq = 0;
  for (int d = 0; d < 3; ++d) {
    pointwise_multiply(exec_, ops_.volume, weighted_[d], cell_work_);
    omega_sq += owned_dot(weighted_[d], cell_work_);
  }
  out.enstrophy = 0.5 * omega_sq;

  // Dissipation: Σ_ab g_ab · (Ω (ν + ν_t) ∘ g_ab).
  waxpby(exec_, 1.0, molecular_viscosity_, 1.0, f.eddy_viscosity, weight_);
  pointwise_multiply(exec_, ops_.volume, weight_, weight_);
  for (int i = 0; i < 9; ++i) {
    pointwise_multiply(exec_, weight_, gradient_[i], cell_work_);
    out.dissipation += owned_dot(gradient_[i], cell_work_);
  }

  // Discrete continuity of the face velocity.
  spmv(exec_, ops_.divergence, f.face_velocity, cell_work_);
  pointwise_multiply(exec_, ops_.inverse_volume, cell_work_, cell_work_);
  out.max_divergence = domain_.max(max_abs(exec_, domain_.owned(cell_work_)));
  double sums[] = {out.kinetic_energy, out.enstrophy, out.dissipation};
  domain_.sum(sums);
  out.kinetic_energy = sums[0];
  out.enstrophy = sums[1];
  out.dissipation = sums[2];
  return out;
}

}  // namespace miniapp::time
