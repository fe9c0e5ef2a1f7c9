#pragma once
#include "solvers/fft/batched_shape.hpp"

// CUDA implementations of the batched frequency kernels (solvers/fft/batched_kernels.hpp), same
// contracts as the CPU reference; `stream` is the executor's cudaStream_t; all asynchronous. In a build
// without CUDA these are stubs that throw miniapp::Error.
namespace miniapp::fft::cuda {

void batched_spmv(void* stream, const ShiftedPointers& m, BatchedShape shape, const double* x, double* y);
// The same without a shift, a warp per row: for rows of many entries (batched_warp_row_entries).
void batched_spmv_warp_rows(void* stream, const CsrView& a, BatchedShape shape, const double* x, double* y);
void batched_jacobi(void* stream, const ShiftedPointers& m, BatchedShape shape, const double* r, double* z);
void batched_column_sums(void* stream, BatchedShape shape, const double* partials, double* out);
void batched_dot_partials(void* stream, BatchedShape shape, index_t owned, const double* u, const double* v,
                          double* partials);
void batched_spmv_dot(void* stream, const ShiftedPointers& m, BatchedShape shape, index_t owned, const double* x,
                      double* y, double* partials, TileSpan tiles);
void batched_cg_update_jacobi(void* stream, const ShiftedPointers& m, BatchedShape shape, index_t jacobi_begin,
                              index_t owned, const CgUpdateVectors& v, double* rz_partials, double* rr_partials);
void batched_direction(void* stream, BatchedShape shape, const double* beta, const double* z, double* p);
void batched_direction_jacobi(void* stream, const ShiftedPointers& m, BatchedShape shape, index_t jacobi_begin,
                              const DirectionVectors& v);
void batched_subtract_mean(void* stream, BatchedShape shape, const double* sums, double count, double* v);
void batched_finish_curvature(void* stream, BatchedShape shape, index_t tiles, double* state, const double* sigma);
void batched_finish_residual(void* stream, BatchedShape shape, index_t tiles, double* state, const double* rho_new,
                             const double* gamma);
void batched_start(void* stream, index_t systems, double* state, const double* sums, double tolerance);

}  // namespace miniapp::fft::cuda
