#include "solvers/matrix_checks.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <string>

#include "core/error.hpp"
#include "operators/backend/cpu/parallel.hpp"

namespace miniapp {

// Rows in parallel; the row reported is the first one, on any thread count.
std::vector<double> positive_diagonal(const CsrMatrix& a, std::string_view who) {
  if (a.rows != a.cols)
    throw Error(std::string(who) + ": the matrix is " + std::to_string(a.rows) + " × " + std::to_string(a.cols) +
                ", a preconditioner needs a square one");
  std::vector<double> diag(static_cast<std::size_t>(a.rows));
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(a.nnz()))
  for (index_t r = 0; r < a.rows; ++r) {
    double d = 0;
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      if (a.col[k] == r) d = a.val[k];
    diag[r] = d;
  }
  require_positive_diagonal(diag, who);
  return diag;
}

void require_positive_diagonal(const std::vector<double>& diag, std::string_view who) {
  const auto n = static_cast<index_t>(diag.size());
  index_t first_bad = n;
#pragma omp parallel for schedule(static) reduction(min : first_bad) if (cpu::worth_parallel(n))
  for (index_t r = 0; r < n; ++r)
    if (!(diag[r] > 0)) first_bad = std::min(first_bad, r);
  if (first_bad < n)
    throw Error(std::string(who) + ": row " + std::to_string(first_bad) + " has diagonal " +
                std::to_string(diag[first_bad]) +
                "; the matrix must have a positive diagonal (solve −L p = b, not L p = b)");
}

namespace {

// Whether row r sums to zero up to round-off relative to its largest entry.
bool zero_row_sum(const CsrMatrix& a, index_t r) {
  double sum = 0, largest = 0;
  for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
    sum += a.val[k];
    largest = std::max(largest, std::abs(a.val[k]));
  }
  return std::abs(sum) <= 1e-10 * largest * static_cast<double>(a.row_length(r));
}

// The root of r's set, halving the path on the way (concurrent finds and unions are safe: a parent
// only ever moves to a smaller row of the same set).
index_t find_root(std::vector<index_t>& parent, index_t r) {
  for (;;) {
    index_t p = std::atomic_ref<index_t>(parent[r]).load(std::memory_order_relaxed);
    if (p == r) return r;
    const index_t grand = std::atomic_ref<index_t>(parent[p]).load(std::memory_order_relaxed);
    if (grand != p) std::atomic_ref<index_t>(parent[r]).compare_exchange_weak(p, grand, std::memory_order_relaxed);
    r = grand;
  }
}

// Joins the sets of x and y, the larger root below the smaller.
void unite(std::vector<index_t>& parent, index_t x, index_t y) {
  for (;;) {
    x = find_root(parent, x);
    y = find_root(parent, y);
    if (x == y) return;
    if (x < y) std::swap(x, y);
    index_t expected = x;
    if (std::atomic_ref<index_t>(parent[x]).compare_exchange_strong(expected, y)) return;
  }
}

}  // namespace

// Components by a concurrent union-find over the links (a_ij ≠ 0): a root is linked below a smaller
// one only, so each component ends with its smallest row as root whatever the order of the unions,
// and the result does not depend on the thread count.
std::vector<index_t> floating_components(const CsrMatrix& a) {
  std::vector<index_t> parent(static_cast<std::size_t>(a.rows));
  std::iota(parent.begin(), parent.end(), index_t{0});
#pragma omp parallel for schedule(dynamic, 1024) if (cpu::worth_parallel(a.nnz()))
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      if (a.col[k] > r && a.val[k] != 0) unite(parent, r, a.col[k]);
  std::vector<unsigned char> floats(static_cast<std::size_t>(a.rows), 1);  // per root
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(a.nnz()))
  for (index_t r = 0; r < a.rows; ++r)
    if (!zero_row_sum(a, r)) std::atomic_ref<unsigned char>(floats[find_root(parent, r)]).store(0, std::memory_order_relaxed);
  std::vector<index_t> floating;
  for (index_t r = 0; r < a.rows; ++r)
    if (parent[r] == r && floats[r]) floating.push_back(r);
  return floating;
}

void check_single_null_vector(const CsrMatrix& a, std::string_view who) {
  const std::vector<index_t> floating = floating_components(a);
  if (floating.size() <= 1) return;
  throw Error(std::string(who) + ": the matrix has " + std::to_string(floating.size()) +
              " disconnected pieces without a fixed value (rows " + std::to_string(floating[0]) + " and " +
              std::to_string(floating[1]) +
              " lie in two of them), so its null space holds more than the constants: the mesh is not connected; "
              "mesh each piece as a case of its own or join them");
}

}  // namespace miniapp
