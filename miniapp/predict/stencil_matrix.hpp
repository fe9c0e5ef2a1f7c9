#pragma once
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::predict {

// The Laplacian stencil (2 · dimensions + 1 points, diagonal 2 · dimensions, off-diagonals −1) on a
// grid of about `rows` cells, n1 cells along every direction but the last: the row length of the
// pressure matrix (7 points in 3D, 5 on the planes of the FFT path) and, by its bytes, a proxy for the
// face-cell operators. Symmetric, irreducibly diagonally dominant: positive definite, as CG and AIP
// need. dimensions: 2 or 3.
CsrMatrix stencil_matrix(index_t rows, int dimensions = 3);

}  // namespace miniapp::predict
