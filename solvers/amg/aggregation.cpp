#include "solvers/amg/aggregation.hpp"

#include <cmath>

#include "solvers/matrix_checks.hpp"

namespace miniapp::amg {
namespace {

constexpr index_t free_row = -1;

// The strong neighbours of every row, with the strength |a_ij| / √(a_ii a_jj) of each link.
struct StrongGraph {
  std::vector<index_t> ptr{0}, neighbour;
  std::vector<double> strength;
};

StrongGraph strong_graph(const CsrMatrix& a, double threshold) {
  const std::vector<double> d = positive_diagonal(a, "AMG");
  StrongGraph g;
  g.ptr.reserve(static_cast<std::size_t>(a.rows) + 1);
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t j = a.col[k];
      const double s = link_strength(a.val[k], d[i], d[j]);
      if (j != i && s >= threshold) {
        g.neighbour.push_back(j);
        g.strength.push_back(s);
      }
    }
    g.ptr.push_back(static_cast<index_t>(g.neighbour.size()));
  }
  return g;
}

}  // namespace

Aggregates aggregate(const CsrMatrix& a, double threshold) {
  const StrongGraph g = strong_graph(a, threshold);
  Aggregates result;
  result.of_row.assign(static_cast<std::size_t>(a.rows), free_row);
  auto& of_row = result.of_row;
  for (index_t i = 0; i < a.rows; ++i) {
    if (of_row[i] != free_row) continue;
    bool all_free = true;
    for (index_t k = g.ptr[i]; k < g.ptr[i + 1] && all_free; ++k) all_free = of_row[g.neighbour[k]] == free_row;
    if (!all_free) continue;
    of_row[i] = result.count;
    for (index_t k = g.ptr[i]; k < g.ptr[i + 1]; ++k) of_row[g.neighbour[k]] = result.count;
    ++result.count;
  }
  // Left-over rows join by the roots' aggregates only (not by rows that joined in this pass), so the
  // aggregates stay within one link of their root.
  const std::vector<index_t> rooted = of_row;
  for (index_t i = 0; i < a.rows; ++i) {
    if (rooted[i] != free_row) continue;
    double strongest = -1;
    for (index_t k = g.ptr[i]; k < g.ptr[i + 1]; ++k)
      if (rooted[g.neighbour[k]] != free_row && g.strength[k] > strongest) {
        strongest = g.strength[k];
        of_row[i] = rooted[g.neighbour[k]];
      }
  }
  return result;
}

}  // namespace miniapp::amg
