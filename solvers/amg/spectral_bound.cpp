#include "solvers/amg/spectral_bound.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace miniapp::amg {
namespace {

constexpr int power_iterations = 15;
constexpr double safety = 1.1;

double gershgorin_bound(const CsrMatrix& a, const std::vector<double>& d) {
  double bound = 0;
  for (index_t i = 0; i < a.rows; ++i) {
    double sum = 0;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum += std::abs(a.val[k]);
    bound = std::max(bound, sum / d[i]);
  }
  return bound;
}

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace

// The power iterations' products run in parallel over rows; the norms are summed in row order, so the
// bound, and the hierarchy, do not depend on the thread count.
double largest_eigenvalue_bound(const CsrMatrix& a, const std::vector<double>& d) {
  const double gershgorin = gershgorin_bound(a, d);
  std::vector<double> scale(d.size()), v(d.size()), w(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) scale[i] = 1.0 / std::sqrt(d[i]);
  std::mt19937 engine(12345);
  std::uniform_real_distribution<double> value(-1, 1);
  for (double& x : v) x = value(engine);
  double length = norm(v), estimate = 0;
  for (int it = 0; it < power_iterations && length > 0; ++it) {
    // w = S A S v / ‖v‖ with S = D^-½: ‖w‖ approaches λmax(D⁻¹A) from below.
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < a.rows; ++i) {
      double sum = 0;
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum += a.val[k] * scale[a.col[k]] * v[a.col[k]];
      w[i] = scale[i] * sum / length;
    }
    estimate = norm(w);
    std::swap(v, w);
    length = estimate;
  }
  return std::min(safety * estimate, gershgorin);
}

}  // namespace miniapp::amg
