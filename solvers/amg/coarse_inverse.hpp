#pragma once
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::amg {

// The pseudo-inverse A⁺ of the small symmetric positive semi-definite coarsest matrix, dense within
// each connected component of A's graph (block diagonal across them), as a CSR matrix, so that the
// coarse solve is one SpMV on any backend. Eigenvalues below 10⁻⁹ of a component's largest are taken
// as zero: the constants of a pure-Neumann or periodic Laplacian (A⁺ b is then the solution orthogonal
// to them). Symmetric bitwise. Throws miniapp::Error when A has a clearly negative eigenvalue (it is
// not positive semi-definite).
CsrMatrix dense_pseudo_inverse(const CsrMatrix& a);

}  // namespace miniapp::amg
