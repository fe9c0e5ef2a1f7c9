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

double largest_eigenvalue_bound(const CsrMatrix& a, const std::vector<double>& d) {
  const double gershgorin = gershgorin_bound(a, d);
  std::vector<double> scale(d.size()), v(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) scale[i] = 1.0 / std::sqrt(d[i]);
  std::mt19937 engine(12345);
  std::uniform_real_distribution<double> value(-1, 1);
  for (double& x : v) x = value(engine);
  double estimate = 0;
  for (int it = 0; it < power_iterations; ++it) {
    const double length = norm(v);
    if (length == 0) break;
    for (std::size_t i = 0; i < v.size(); ++i) v[i] *= scale[i] / length;
    v = reference_spmv(a, v);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] *= scale[i];
    estimate = norm(v);  // ‖S v‖ for the unit vector v: the Rayleigh bound's root, approaching λmax from below
  }
  return std::min(safety * estimate, gershgorin);
}

}  // namespace miniapp::amg
