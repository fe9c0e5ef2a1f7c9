#pragma once
#include "solvers/fft/batched_shape.hpp"

// CUDA implementations of the batched frequency kernels (solvers/fft/batched_kernels.hpp), same
// contracts as the CPU reference; `stream` is the executor's cudaStream_t; all asynchronous. In a build
// without CUDA these are stubs that throw miniapp::Error.
namespace miniapp::fft::cuda {

void batched_spmv(void* stream, const ShiftedPointers& m, BatchedShape shape, const double* x, double* y);
void batched_jacobi(void* stream, const ShiftedPointers& m, BatchedShape shape, const double* r, double* z);
// Scratch doubles batched_dot needs for `systems` systems.
index_t batched_dot_scratch(index_t systems);
void batched_dot(void* stream, BatchedShape shape, const double* u, const double* v, double* scratch, double* out);
void batched_cg_update(void* stream, BatchedShape shape, const double* alpha, const double* p, const double* q,
                       double* x, double* r);
void batched_direction(void* stream, BatchedShape shape, const double* beta, const double* z, double* p);
void batched_add(void* stream, BatchedShape shape, const double* value, double* v);
void batched_finish_curvature(void* stream, BatchedShape shape, double* state, const double* sigma);
void batched_finish_residual(void* stream, BatchedShape shape, double* state, const double* rho_new,
                             const double* gamma);

}  // namespace miniapp::fft::cuda
