#pragma once
#include <span>

#include "operators/backend/device_matrix.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp {

// y = A x. Bytes counted: stored entries (values + column indices, padding included), slice or row
// pointers, x once, y once. Flops: 2 per true non-zero.
void spmv(const Executor& exec, const DeviceSell& a, const Vector& x, Vector& y);
void spmv(const Executor& exec, const DeviceCsr& a, const Vector& x, Vector& y);
// Rows of at least this many entries on average: the CUDA backend multiplies a CSR matrix with a group
// of lanes per row (cuda csr_row.cuh; its sums then in another order than the CPU's: equal to
// round-off), else a thread per row. On the small matrices that come in CSR (AMG's, amg::kept_in_csr)
// a call is bound by its slowest row's chain of loads, which a group cuts to a round or two already at
// rows of about ten entries.
inline constexpr double csr_warp_row_entries = 8;

// Generalized SpMV: y[i] = A x[i] for up to max_spmv_vectors vectors in one pass over the matrix (thesis §2.4),
// counted as one SpMV call reading the matrix once and every x and y once.
void spmv_multi(const Executor& exec, const DeviceSell& a, std::span<const Vector* const> x,
                std::span<Vector* const> y);

// y = Σ_d A_d x_d for k = x.size() blocks A_d (1 ≤ k ≤ max_spmv_vectors) stored as one sELL matrix A
// with their columns interleaved: column k·j + d is A_d's column j and reads x_d[j]. Each row holds
// only its blocks' non-zeros together, where k separate matrices would each keep a row and pad it to
// its slice's width (Γ's three components: on a hexahedral face two of the three rows are empty);
// the k products are summed in one pass, in the row's stored order. Counted as one SpMV: A once,
// every x_d and y once.
void spmv_interleaved(const Executor& exec, const DeviceSell& a, std::span<const Vector* const> x, Vector& y);

}  // namespace miniapp
