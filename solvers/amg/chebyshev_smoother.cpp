#include "solvers/amg/chebyshev_smoother.hpp"

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
      delta_(0.5 * lambda_max * (1 - 1 / ratio)),
      inverse_diagonal_(degree > 1 ? inverse(exec, d, 1.0) : Vector(exec, 0)),
      scaled_inverse_diagonal_(inverse(exec, d, theta_)), residual_(exec, degree > 1 ? length(d) : 0),
      direction_(exec, degree > 1 ? length(d) : 0), work_(exec, degree > 1 ? length(d) : 0) {}

}  // namespace miniapp::amg
