#include "solvers/amg/rank_spectral_bound.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace miniapp::amg {
namespace {

constexpr int power_iterations = 15;  // as on one rank (spectral_bound.cpp)
constexpr double safety = 1.1;

// ‖v‖ over the owned entries of every rank.
double global_norm(const parallel::Communicator& comm, const std::vector<double>& v, index_t owned) {
  double s = 0;
  for (index_t i = 0; i < owned; ++i) s += v[i] * v[i];
  return std::sqrt(comm.allreduce(s, parallel::ReduceOp::sum));
}

}  // namespace

double rank_largest_eigenvalue_bound(const parallel::Communicator& comm, HostHalo& halo, const CsrMatrix& a,
                                     const std::vector<double>& d) {
  const index_t owned = a.rows;
  double gershgorin = 0;  // max_i Σ_j |a_ij| / a_ii over every rank's rows
  for (index_t i = 0; i < owned; ++i) {
    double row = 0;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) row += std::abs(a.val[k]);
    gershgorin = std::max(gershgorin, row / d[i]);
  }
  gershgorin = comm.allreduce(gershgorin, parallel::ReduceOp::max);
  // S A S with S = D^-½ on the local entries: symmetric, with D⁻¹A's eigenvalues.
  std::vector<double> scale(d.size()), v(d.size(), 0.0), w(d.size(), 0.0);
  std::transform(d.begin(), d.end(), scale.begin(), [](double x) { return 1.0 / std::sqrt(x); });
  std::mt19937 engine(12345u + static_cast<unsigned>(comm.rank()));
  std::uniform_real_distribution<double> value(-1, 1);
  for (index_t i = 0; i < owned; ++i) v[i] = value(engine);
  double length = global_norm(comm, v, owned), estimate = 0;
  for (int it = 0; it < power_iterations && length > 0; ++it) {
    halo.update(v);
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < owned; ++i) {
      double sum = 0;
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum += a.val[k] * scale[a.col[k]] * v[a.col[k]];
      w[i] = scale[i] * sum / length;
    }
    estimate = global_norm(comm, w, owned);
    std::swap(v, w);
    length = estimate;
  }
  return std::min(safety * estimate, gershgorin);
}

}  // namespace miniapp::amg
