#include "solvers/amg/spectral_bound.hpp"

#include <algorithm>
#include <cmath>

#include "operators/backend/cpu/parallel.hpp"
#include "solvers/amg/parallel_setup.hpp"

namespace miniapp::amg {
namespace {

// max over rows of Σ_j |a_ij| / a_ii (a max: the same on any thread count).
double gershgorin_bound(const CsrMatrix& a, const std::vector<double>& d) {
  double bound = 0;
#pragma omp parallel for schedule(static) reduction(max : bound) if (cpu::worth_parallel(a.nnz()))
  for (index_t i = 0; i < a.rows; ++i) {
    double sum = 0;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum += std::abs(a.val[k]);
    bound = std::max(bound, sum / d[i]);
  }
  return bound;
}

double sum_over_ranks(const RankSplit* split, double x) { return split ? split->sum(x) : x; }

double norm(const std::vector<double>& v, const RankSplit* split) {
  return std::sqrt(sum_over_ranks(split, ordered_sum_of_squares(v)));
}

// A start vector with entries in [−1, 1) from a hash of the row index: the same at any thread count,
// and made in parallel (a sequential generator was a serial pass of its own).
std::vector<double> start_vector(std::size_t n) {
  std::vector<double> v(n);
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(static_cast<index_t>(n)))
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(mix_bits(i) >> 11) * 0x1p-52 - 1.0;
  return v;
}

}  // namespace

// The power iterations' products run in parallel over rows; the norms are summed in an order fixed by
// the row count, so the bound, and the hierarchy, do not depend on the thread count. For a symmetric
// matrix the estimates ‖(SAS)ᵏ⁺¹v‖ / ‖(SAS)ᵏv‖ never decrease (Cauchy–Schwarz), so once 1.1 times one
// reaches Gershgorin's bound the result is that bound and the iterations stop: on the fine levels of
// a Laplacian (an M-matrix, whose bound is tight) after a few.
double largest_eigenvalue_bound(const CsrMatrix& a, const std::vector<double>& d, const RankSplit* split) {
  const double gershgorin = split ? split->max(gershgorin_bound(a, d)) : gershgorin_bound(a, d);
  const bool parallel = cpu::worth_parallel(a.nnz());
  const auto rows = static_cast<std::size_t>(a.rows);
  std::vector<double> scale(d.size()), v = start_vector(rows), u(d.size(), 0.0);
  const double start_length = norm(v, split);
  // u = S v / ‖v‖ with S = D^-½ (the next product then gathers one vector, not two).
#pragma omp parallel for schedule(static) if (parallel)
  for (std::size_t i = 0; i < d.size(); ++i) {
    scale[i] = 1.0 / std::sqrt(d[i]);
    if (i < rows) u[i] = scale[i] * v[i] / start_length;
  }
  double estimate = 0;
  for (int it = 0; it < power_iterations && bound_safety * estimate < gershgorin; ++it) {
    if (split) split->update_halo(u);
    // v = S A S (previous v) / ‖previous v‖: ‖v‖ approaches λmax(D⁻¹A) from below.
#pragma omp parallel for schedule(static) if (parallel)
    for (index_t i = 0; i < a.rows; ++i) {
      double sum = 0;
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum += a.val[k] * u[a.col[k]];
      v[i] = scale[i] * sum;
    }
    estimate = norm(v, split);
    if (!(estimate > 0)) break;
#pragma omp parallel for schedule(static) if (parallel)
    for (index_t i = 0; i < a.rows; ++i) u[i] = scale[i] * v[i] / estimate;
  }
  return std::min(bound_safety * estimate, gershgorin);
}

}  // namespace miniapp::amg
