#pragma once
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::predict {

// The Laplacian stencil (2 · dimensions + 1 points, diagonal 2 · dimensions, off-diagonals −1) on a
// grid of about `rows` cells, n1 cells along every direction but the last: the row length of the
// pressure matrix (7 points in 3D, 5 on the planes of the FFT path) and, by its bytes, a proxy for the
// face-cell operators. Symmetric, irreducibly diagonally dominant: positive definite, as CG and AIP
// need. dimensions: 2 or 3.
CsrMatrix stencil_matrix(index_t rows, int dimensions = 3);

// The cell-to-face interpolation of the 3D stencil's grid on about `cells` cells, in the interleaved
// form spmv_interleaved reads (column 3 · cell + d takes component d of the cell's vector): a row
// per cell and direction d (the face to its next cell along d, where there is one), 1/2 at its two
// cells in component d, as the operators' cell-to-face map of the normal velocity has on a hex mesh.
CsrMatrix face_matrix(index_t cells);

}  // namespace miniapp::predict
