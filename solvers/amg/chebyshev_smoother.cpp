#include "solvers/amg/chebyshev_smoother.hpp"

#include "operators/kernels/vector_ops.hpp"

namespace miniapp::amg {
namespace {

Vector inverse(const Executor& exec, const std::vector<double>& d, double scale) {
  std::vector<double> inv(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) inv[i] = 1.0 / (scale * d[i]);
  return Vector::from_host(exec, inv);
}

index_t length(const std::vector<double>& d) { return static_cast<index_t>(d.size()); }

}  // namespace

ChebyshevSmoother::ChebyshevSmoother(const Executor& exec, const LevelOperator& a, const std::vector<double>& d,
                                     double lambda_max, double ratio, int degree)
    : exec_(exec), a_(a), degree_(degree), theta_(0.5 * lambda_max * (1 + 1 / ratio)),
      delta_(0.5 * lambda_max * (1 - 1 / ratio)), inverse_diagonal_(inverse(exec, d, 1.0)),
      scaled_inverse_diagonal_(inverse(exec, d, theta_)), residual_(exec, length(d)), direction_(exec, length(d)),
      work_(exec, length(d)) {}

// With r the residual and d the step: d₀ = D⁻¹ r₀ / θ; d_k = ρ_k ρ_{k−1} d_{k−1} + (2 ρ_k / δ) D⁻¹ r_k
// with ρ₀ = δ / θ, ρ_k = 1 / (2 θ / δ − ρ_{k−1}); x ← x + d_k and r ← r − A d_k after each.
void ChebyshevSmoother::smooth(const Vector& b, Vector& x, bool zero_guess) const {
  const Vector* r = &b;  // r₀ = b from x = 0
  if (zero_guess) {
    if (degree_ == 1) return pointwise_multiply(exec_, scaled_inverse_diagonal_, b, x);
    pointwise_multiply(exec_, scaled_inverse_diagonal_, b, direction_);
    copy(exec_, direction_, x);
  } else {
    a_.apply(x, work_);
    waxpby(exec_, 1.0, b, -1.0, work_, residual_);
    r = &residual_;
    pointwise_multiply(exec_, scaled_inverse_diagonal_, residual_, direction_);
    axpby(exec_, 1.0, direction_, 1.0, x);
  }
  double rho = delta_ / theta_;
  for (int k = 1; k < degree_; ++k) {
    a_.apply(direction_, work_);
    if (r == &b) waxpby(exec_, 1.0, b, -1.0, work_, residual_);
    else axpby(exec_, -1.0, work_, 1.0, residual_);
    r = &residual_;
    const double rho_next = 1.0 / (2.0 * theta_ / delta_ - rho);
    pointwise_multiply(exec_, inverse_diagonal_, residual_, work_);
    axpby(exec_, 2.0 * rho_next / delta_, work_, rho_next * rho, direction_);
    axpby(exec_, 1.0, direction_, 1.0, x);
    rho = rho_next;
  }
}

}  // namespace miniapp::amg
