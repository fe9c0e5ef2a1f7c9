#pragma once
#include "operators/backend/device_matrix.hpp"

// CUDA part of AMG's set-up (solvers/amg/device_galerkin.hpp): the sparse product C = A B of CSR
// matrices in device memory, one warp per row of C, in two passes (count, then fill). In a build
// without CUDA these are stubs that throw miniapp::Error.
namespace miniapp::amg::cuda {

// The most distinct columns a row of C may have: each warp keeps its row's columns and sums in shared
// memory.
inline constexpr index_t product_row_capacity = 512;

// counts[i] = the number of distinct columns of row i of A B. Returns false when some row has more
// than product_row_capacity (the counts are then not all exact). Synchronous.
bool product_row_counts(void* stream, const CsrView& a, const CsrView& b, index_t* counts);

// C's rows from the offsets row_ptr (the counts' exclusive sums): each row's columns in increasing
// order, each entry summed from 0.0 over A's row in order and, within it, B's row in order, every term
// a_ik b_kj rounded before it is added (no fused multiply-add): the host product's bits
// (amg::sparse_product). Asynchronous.
void product_rows(void* stream, const CsrView& a, const CsrView& b, const index_t* row_ptr, index_t* col, double* val);

}  // namespace miniapp::amg::cuda
