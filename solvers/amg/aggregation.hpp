#pragma once
#include <cmath>
#include <vector>

#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::amg {

// A partition of the rows of a matrix into aggregates, each row in exactly one.
struct Aggregates {
  std::vector<index_t> of_row;  // aggregate of each row, in 0..count − 1
  index_t count = 0;
};

// The strength of the link between rows i and j, |a_ij| / √(a_ii a_jj): strong when at least the
// threshold.
inline double link_strength(double a_ij, double a_ii, double a_jj) { return std::abs(a_ij) / std::sqrt(a_ii * a_jj); }

// Greedy aggregation of the strong-connection graph (Vaněk, Mandel and Brezina, "Algebraic multigrid
// by smoothed aggregation for second and fourth order elliptic problems", 1996): j is a strong
// neighbour of i when |a_ij| ≥ threshold · √(a_ii a_jj). First, each row whose strong neighbours are
// all free becomes a root and takes them into its aggregate; then each row left over joins the
// aggregate of the neighbour it is most strongly connected to (one exists: a row was left over only
// because a neighbour was taken). A row without strong neighbours is an aggregate of its own.
// Aggregates never span two connected components. a: square; d: its diagonal, positive
// (positive_diagonal).
Aggregates aggregate(const CsrMatrix& a, const std::vector<double>& d, double threshold);

}  // namespace miniapp::amg
