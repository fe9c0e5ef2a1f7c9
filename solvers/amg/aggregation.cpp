#include "solvers/amg/aggregation.hpp"

#include <cmath>

#include "operators/sparse/csr_rows.hpp"

namespace miniapp::amg {
namespace {

constexpr index_t free_row = -1;

// The strong neighbours of every row, as a matrix whose values are the strengths |a_ij| / √(a_ii a_jj)
// of the links (rows built in parallel).
CsrMatrix strong_graph(const CsrMatrix& a, const std::vector<double>& d, double threshold) {
  return csr_from_rows(a.rows, a.cols, [&] {
    return [&](index_t i, RowEntries& out) {
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        const index_t j = a.col[k];
        const double s = link_strength(a.val[k], d[i], d[j]);
        if (j != i && s >= threshold) out.push(j, s);
      }
    };
  });
}

}  // namespace

Aggregates aggregate(const CsrMatrix& a, const std::vector<double>& d, double threshold) {
  const CsrMatrix g = strong_graph(a, d, threshold);
  Aggregates result;
  result.of_row.assign(static_cast<std::size_t>(a.rows), free_row);
  auto& of_row = result.of_row;
  for (index_t i = 0; i < a.rows; ++i) {
    if (of_row[i] != free_row) continue;
    bool all_free = true;
    for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1] && all_free; ++k) all_free = of_row[g.col[k]] == free_row;
    if (!all_free) continue;
    of_row[i] = result.count;
    for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) of_row[g.col[k]] = result.count;
    ++result.count;
  }
  // Left-over rows join by the roots' aggregates only (not by rows that joined in this pass), so the
  // aggregates stay within one link of their root.
  const std::vector<index_t> rooted = of_row;
  for (index_t i = 0; i < a.rows; ++i) {
    if (rooted[i] != free_row) continue;
    double strongest = -1;
    for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k)
      if (rooted[g.col[k]] != free_row && g.val[k] > strongest) {
        strongest = g.val[k];
        of_row[i] = rooted[g.col[k]];
      }
  }
  return result;
}

}  // namespace miniapp::amg
