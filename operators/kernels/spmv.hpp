#pragma once
#include <span>

#include "operators/backend/device_matrix.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp {

// y = A x. Bytes counted: stored entries (values + column indices, padding included), slice or row
// pointers, x once, y once. Flops: 2 per true non-zero.
void spmv(const Executor& exec, const DeviceSell& a, const Vector& x, Vector& y);
void spmv(const Executor& exec, const DeviceCsr& a, const Vector& x, Vector& y);

// Generalized SpMV: y[i] = A x[i] for up to max_spmv_vectors vectors in one pass over the matrix (thesis §2.4),
// counted as one SpMV call reading the matrix once and every x and y once.
void spmv_multi(const Executor& exec, const DeviceSell& a, std::span<const Vector* const> x,
                std::span<Vector* const> y);

}  // namespace miniapp
