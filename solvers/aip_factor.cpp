#include "solvers/aip_factor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "core/parallel_exceptions.hpp"

namespace miniapp {
namespace {

// A pivot at or below this fraction of its original diagonal entry counts as zero: a singular local
// system (S_i covering a whole component of a singular −L) leaves a pivot of rounding size, about
// |S_i| · eps relative, while the SPD principal submatrices of Laplacians keep pivots far above it.
constexpr double pivot_tolerance = 1e-12;

void check_arguments(const CsrMatrix& a, int level, const char* where) {
  if (level < aip_min_level || level > aip_max_level)
    throw Error(std::string(where) + ": sparsity level " + std::to_string(level) + " is outside " +
                std::to_string(aip_min_level) + ".." + std::to_string(aip_max_level));
  if (a.rows != a.cols)
    throw Error(std::string(where) + ": the matrix is " + std::to_string(a.rows) + "x" +
                std::to_string(a.cols) + ", the approximate inverse needs a square one");
}

// The pattern of A plus the identity with value 1 everywhere: products of it count paths, so no entry
// of a power can cancel, and every row has its diagonal even where A stores none (e.g. an empty row).
CsrMatrix unit_pattern_with_diagonal(const CsrMatrix& a) {
  std::vector<Triplet> entries;
  entries.reserve(static_cast<std::size_t>(a.nnz()) + static_cast<std::size_t>(a.rows));
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) entries.push_back({i, a.col[p], 1.0});
    entries.push_back({i, i, 1.0});
  }
  CsrMatrix b = csr_from_triplets(a.rows, a.cols, std::move(entries));
  for (double& v : b.val) v = 1.0;
  return b;
}

CsrMatrix lower_triangle(const CsrMatrix& a) {
  CsrMatrix l;
  l.rows = a.rows;
  l.cols = a.cols;
  l.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1] && a.col[p] <= i; ++p) {
      l.col.push_back(a.col[p]);
      l.val.push_back(a.val[p]);
    }
    l.row_ptr[i + 1] = static_cast<index_t>(l.col.size());
  }
  return l;
}

// Per-thread scratch: the dense local system and a global → local column map (-1 outside S_i).
struct RowWorkspace {
  explicit RowWorkspace(index_t n) : local(static_cast<std::size_t>(n), -1) {}
  std::vector<index_t> local;
  std::vector<double> dense;  // m × m, row-major; Cholesky factor L overwrites its lower triangle
  std::vector<double> acc;    // right-hand side of the back substitution
};

struct PivotFailure {
  index_t column;  // global column of the failing pivot
  double pivot;
};

// Gathers A[S, S] into ws.dense (row-major) by reading the rows of A listed in S.
void gather_local_matrix(const CsrMatrix& a, std::span<const index_t> s, RowWorkspace& ws) {
  const std::size_t m = s.size();
  ws.dense.assign(m * m, 0.0);
  for (std::size_t p = 0; p < m; ++p) ws.local[s[p]] = static_cast<index_t>(p);
  for (std::size_t p = 0; p < m; ++p)
    for (index_t q = a.row_ptr[s[p]]; q < a.row_ptr[s[p] + 1]; ++q)
      if (const index_t c = ws.local[a.col[q]]; c >= 0) ws.dense[p * m + c] = a.val[q];
  for (std::size_t p = 0; p < m; ++p) ws.local[s[p]] = -1;
}

// In-place Cholesky L Lᵀ of the m × m matrix in ws.dense (lower triangle referenced). Returns the
// first pivot that is not safely positive.
std::optional<PivotFailure> cholesky(std::span<const index_t> s, RowWorkspace& ws) {
  const std::size_t m = s.size();
  double* d = ws.dense.data();
  for (std::size_t k = 0; k < m; ++k) {
    double pivot = d[k * m + k];
    for (std::size_t p = 0; p < k; ++p) pivot -= d[k * m + p] * d[k * m + p];
    if (!(pivot > pivot_tolerance * std::abs(d[k * m + k]))) return PivotFailure{s[k], pivot};
    const double lkk = std::sqrt(pivot);
    d[k * m + k] = lkk;
    for (std::size_t r = k + 1; r < m; ++r) {
      double sum = d[r * m + k];
      for (std::size_t p = 0; p < k; ++p) sum -= d[r * m + p] * d[k * m + p];
      d[r * m + k] = sum / lkk;
    }
  }
  return std::nullopt;
}

// Row i of G on its pattern s (sorted, s.back() == i), written to g. With A[S,S] = L Lᵀ, the solution
// of A[S,S] x = e_last is Lᵀ x = e_last / L_mm with x_last = 1 / L_mm², so the scaled row
// x / sqrt(x_last) = L_mm · x solves Lᵀ g = e_last: one back substitution, done row-wise (axpy form)
// to read L contiguously.
std::optional<PivotFailure> factor_row(const CsrMatrix& a, std::span<const index_t> s, RowWorkspace& ws,
                                       std::span<double> g) {
  gather_local_matrix(a, s, ws);
  if (auto failure = cholesky(s, ws)) return failure;
  const std::size_t m = s.size();
  const double* l = ws.dense.data();
  ws.acc.assign(m, 0.0);
  ws.acc[m - 1] = 1.0;
  for (std::size_t q = m; q-- > 0;) {
    g[q] = ws.acc[q] / l[q * m + q];
    for (std::size_t r = 0; r < q; ++r) ws.acc[r] -= l[q * m + r] * g[q];
  }
  return std::nullopt;
}

std::span<const index_t> row_columns(const CsrMatrix& m, index_t i) {
  return {m.col.data() + m.row_ptr[i], static_cast<std::size_t>(m.row_length(i))};
}

Error pivot_error(index_t row, int level, std::size_t size, const PivotFailure& f) {
  char pivot[32];
  std::snprintf(pivot, sizeof pivot, "%.3g", f.pivot);
  return Error("aip_factor: row " + std::to_string(row) + ", sparsity level " + std::to_string(level) +
               ": pivot " + pivot + " at column " + std::to_string(f.column) +
               " of the local system A[S_i, S_i] (" + std::to_string(size) +
               " unknowns) is not positive, so A is not positive definite on this pattern (a singular "
               "matrix such as a periodic or pure-Neumann Laplacian fails where S_i covers a whole "
               "connected component, e.g. on a mesh of one or very few cells)");
}

}  // namespace

CsrMatrix aip_pattern(const CsrMatrix& a, int level) {
  check_arguments(a, level, "aip_pattern");
  const CsrMatrix b = unit_pattern_with_diagonal(a);
  CsrMatrix power = b;
  for (int k = 1; k < level; ++k) power = multiply(power, b);
  CsrMatrix s = lower_triangle(power);
  for (double& v : s.val) v = 1.0;
  return s;
}

// Rows are independent; each thread keeps one workspace. A failing row is recorded (the smallest,
// so the message does not depend on the schedule) and refactored serially to build the message.
CsrMatrix aip_factor(const CsrMatrix& a, int level) {
  CsrMatrix g = aip_pattern(a, level);
  const index_t n = a.rows;
  index_t first_failure = n;
  ParallelExceptions errors;  // the workspaces' allocations
#pragma omp parallel
  {
    std::optional<RowWorkspace> ws;
    errors.guard([&] { ws.emplace(n); });
#pragma omp for schedule(dynamic, 256) reduction(min : first_failure)
    for (index_t i = 0; i < n; ++i)
      errors.guard([&] {
        std::span<double> row(g.val.data() + g.row_ptr[i], static_cast<std::size_t>(g.row_length(i)));
        if (factor_row(a, row_columns(g, i), *ws, row)) first_failure = std::min(first_failure, i);
      });
  }
  errors.rethrow();
  if (first_failure < n) {
    RowWorkspace ws(n);
    const auto s = row_columns(g, first_failure);
    std::vector<double> row(s.size());
    throw pivot_error(first_failure, level, s.size(), *factor_row(a, s, ws, row));
  }
  return g;
}

}  // namespace miniapp
