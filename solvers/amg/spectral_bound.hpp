#pragma once
#include <vector>

#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::amg {

// The largest eigenvalue of D⁻¹A (D = diag(A), a symmetric with positive diagonal `d`), estimated by
// power iterations on the symmetric D^-½ A D^-½ from a fixed pseudo-random start, scaled by a 1.1
// safety factor (power iterations approach it from below) and capped by Gershgorin's bound
// max_i Σ_j |a_ij| / a_ii, which it cannot exceed.
double largest_eigenvalue_bound(const CsrMatrix& a, const std::vector<double>& d);

}  // namespace miniapp::amg
