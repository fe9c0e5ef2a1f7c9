#pragma once
#include "operators/sparse/csr_rows.hpp"

namespace miniapp::amg {

// A · B by Gustavson's row-by-row product with a dense accumulator of B.cols entries per thread: the
// rows of the Galerkin products (A P and Pᵀ (A P)) gather tens to hundreds of columns, where
// miniapp::multiply, made for the few columns of finite-volume rows, sorts every product. Sums in the
// same order as miniapp::multiply (the loops' (p, q) order, from 0.0), so the result is the same.
// `reuse`: csr_from_rows's buffers, kept from one product to the next.
CsrMatrix sparse_product(const CsrMatrix& a, const CsrMatrix& b, RowBlocks* reuse = nullptr);

// The coarse operator R A P (R = Pᵀ).
CsrMatrix galerkin_product(const CsrMatrix& r, const CsrMatrix& a, const CsrMatrix& p, RowBlocks* reuse = nullptr);

}  // namespace miniapp::amg
