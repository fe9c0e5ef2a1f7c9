#pragma once
#include "operators/backend/device_matrix.hpp"
#include "operators/kernels/aip_kernels.hpp"

// SpMVs with the vector kernel that follows them done in the same pass (AMG's cycle: the residual b − A x,
// the prolonged correction x + P x_c, the damped-Jacobi post-smoothing step), for a sELL matrix with double
// or with float values, or a CSR matrix (on CUDA a group of lanes per row: for few, long rows). Row i's
// product is summed as spmv sums it on sELL (on CSR, in the CUDA backend, across the row's group of lanes),
// then combined with row i of the other vectors before it is stored (operators/backend/spmv_epilogue.hpp),
// so y_i differs from the separate kernels' result by the rounding of the last operations only. Each is
// counted as one SpMV: the matrix's entries (12 bytes each with double values, 8 with float) and slice
// pointers or row offsets, x once, y written and each other vector read once; 2 flops per true non-zero and
// 3 per row.
namespace miniapp {

// y = α u + β A x: x has a.cols() entries; u and y a.rows(); u may be y, x may not.
void spmv_axpby(const Executor& exec, const DeviceSell& a, const Vector& x, double alpha, const Vector& u, double beta,
                Vector& y);
void spmv_axpby(const Executor& exec, const DeviceSellFloat& a, const Vector& x, double alpha, const Vector& u,
                double beta, Vector& y);
void spmv_axpby(const Executor& exec, const DeviceCsr& a, const Vector& x, double alpha, const Vector& u, double beta,
                Vector& y);

// y = v + w ⊙ (b − A x): a damped-Jacobi step (w = ω D⁻¹) from x, v holding x's entries at y's rows (x
// itself for a square matrix on one rank, or a window of x; its bytes are then x's, not counted again).
// x has a.cols() entries; v, b, w and y a.rows(); y must not be x.
void jacobi_step(const Executor& exec, const DeviceSell& a, const Vector& x, const Vector& v, const Vector& b,
                 const Vector& w, Vector& y);
void jacobi_step(const Executor& exec, const DeviceSellFloat& a, const Vector& x, const Vector& v, const Vector& b,
                 const Vector& w, Vector& y);
void jacobi_step(const Executor& exec, const DeviceCsr& a, const Vector& x, const Vector& v, const Vector& b,
                 const Vector& w, Vector& y);

}  // namespace miniapp
