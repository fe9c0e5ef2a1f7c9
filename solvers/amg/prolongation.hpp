#pragma once
#include <vector>

#include "operators/sparse/csr_matrix.hpp"
#include "solvers/amg/aggregation.hpp"

namespace miniapp::amg {

// The tentative prolongation T: rows × aggregates, T_ij = 1 where row i lies in aggregate j. It
// reproduces the constants (T 1 = 1), the null space of a Laplacian.
CsrMatrix tentative_prolongation(const Aggregates& aggregates);

// The smoothed prolongation P = (I − ω D⁻¹ A) T with ω = 4 / (3 λ), λ a bound of λmax(D⁻¹A): damped
// Jacobi applied to T's columns, which makes the coarse basis functions smooth and overlapping
// (smoothed aggregation). P 1 = 1 still where A 1 = 0. d: A's diagonal.
CsrMatrix smoothed_prolongation(const CsrMatrix& a, const std::vector<double>& d, double lambda_max,
                                const Aggregates& aggregates);

}  // namespace miniapp::amg
