#pragma once
#include <cmath>
#include <vector>

#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::amg {

// A partition of the rows of a matrix into aggregates, each row in exactly one.
struct Aggregates {
  std::vector<index_t> of_row;  // aggregate of each row, in 0..count − 1
  index_t count = 0;
  // Each aggregate's root row, increasing with the aggregates' numbers (aggregate() numbers them so);
  // empty in aggregates made otherwise.
  std::vector<index_t> root;
};

// The strength of the link between rows i and j, |a_ij| / √(a_ii a_jj): strong when at least the
// threshold.
inline double link_strength(double a_ij, double a_ii, double a_jj) { return std::abs(a_ij) / std::sqrt(a_ii * a_jj); }

// Aggregation of the strong-connection graph (Vaněk, Mandel and Brezina, "Algebraic multigrid by
// smoothed aggregation for second and fourth order elliptic problems", 1996): the off-diagonal entries
// of `filtered`, the matrix with its weak links dropped (filtered_matrix: j is a strong neighbour of i
// when |a_ij| ≥ θ √(a_ii a_jj)). Its roots are chosen in parallel as a distance-2 independent set by
// hashed priorities (Bell, Dalton and Olson, "Exposing fine-grained parallelism in algebraic multigrid
// methods", 2012). Each root takes its strong neighbours into its aggregate (no two roots share one);
// a second such set among the rows left free, of rows with several free neighbours, adds roots where
// the first left gaps; each row left over then joins the aggregate of the neighbour it is most
// strongly connected to. A row without strong neighbours is an aggregate of its own. Aggregates never span two
// connected components. The same aggregates on any thread count. d: the diagonal of the matrix before
// filtering, positive (positive_diagonal).
Aggregates aggregate(const CsrMatrix& filtered, const std::vector<double>& d);

}  // namespace miniapp::amg
