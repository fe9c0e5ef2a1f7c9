#pragma once
// Comparisons of host CSR matrices, for checks of assembled operators (fv::check_operators) and tests.
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp {

// max |a_ij − b_ij| over the union of both patterns (rows sorted by column, as every CsrMatrix here);
// NaN when an entry of either is NaN. Throws miniapp::Error when the shapes differ.
double max_abs_difference(const CsrMatrix& a, const CsrMatrix& b);

}  // namespace miniapp
