#pragma once
#include <span>

#include "operators/backend/device_matrix.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp {

// y = A x. Bytes counted: stored entries (values + column indices, padding included), slice or row
// pointers, x once, y once. Flops: 2 per true non-zero.
void spmv(const Executor& exec, const DeviceSell& a, const Vector& x, Vector& y);
void spmv(const Executor& exec, const DeviceCsr& a, const Vector& x, Vector& y);

// Fused forms for AMG's cycle, each one pass over the matrix and counted as one SpMV (their bytes: the
// matrix, x once, and the other vectors once each). Same sums as spmv, so y_i differs from the unfused
// kernels' sequence by the rounding of the last operations only.
// y = α u + β A x: the residual b − A x (α = 1, β = −1) or x + P e (α = β = 1). u may be y; x may not.
void spmv_axpby(const Executor& exec, const DeviceSell& a, const Vector& x, double alpha, const Vector& u,
                double beta, Vector& y);
// y = x + w ⊙ (b − A x): a damped-Jacobi step (w = ω D⁻¹) from x, into y ≠ x.
void jacobi_step(const Executor& exec, const DeviceSell& a, const Vector& x, const Vector& b, const Vector& w,
                 Vector& y);

// Generalized SpMV: y[i] = A x[i] for up to max_spmv_vectors vectors in one pass over the matrix (thesis §2.4),
// counted as one SpMV call reading the matrix once and every x and y once.
void spmv_multi(const Executor& exec, const DeviceSell& a, std::span<const Vector* const> x,
                std::span<Vector* const> y);

}  // namespace miniapp
