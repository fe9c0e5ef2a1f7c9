#pragma once
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp {

// Host set-up of the approximate inverse preconditioner (AIP, thesis §1.2.2): the factorized sparse
// approximate inverse M = Gᵀ G ≈ A⁻¹ of Kolotilina–Yeremin, computed from A alone as in Chow's work.

// Smallest and largest sparsity level (power of A that fixes the pattern of G).
inline constexpr int aip_min_level = 1;
inline constexpr int aip_max_level = 3;

// The pattern S of G for sparsity level k: the lower triangle (j ≤ i) of the pattern of A^k, with the
// diagonal always present. Values are 1. Structural pattern only: entries of A^k that cancel
// numerically are kept, so the pattern depends on where A has entries, not on their values.
// A must be square; throws miniapp::Error when it is not or when k is outside 1..3.
CsrMatrix aip_pattern(const CsrMatrix& a, int level);

// The factor G on aip_pattern(A, k): row i holds g / sqrt(g_i), where g solves the small dense system
// A[S_i, S_i] g = e_i (one Cholesky factorization per row, OpenMP over rows). Then (G A)_ij = 0 for
// j ∈ S_i \ {i}, (G A Gᵀ)_ii = 1, and G is lower triangular with a positive diagonal.
// A must be symmetric (not checked: only the rows of S_i are read) and positive definite on every
// A[S_i, S_i]. A singular −L (pure-Neumann or periodic Laplacian, constant null space) qualifies as
// long as no S_i covers a whole connected component of the mesh. Throws miniapp::Error naming the
// first row and the level where a pivot is not positive, and for a non-square A or k outside 1..3.
CsrMatrix aip_factor(const CsrMatrix& a, int level);

}  // namespace miniapp
