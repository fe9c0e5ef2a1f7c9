#pragma once
#include "solvers/fft/batched_shape.hpp"

// CPU (OpenMP over rows) reference of the batched frequency kernels (solvers/fft/batched_kernels.hpp):
// same contracts; called only through the front ends.
namespace miniapp::fft::cpu {

void batched_spmv(const ShiftedPointers& m, BatchedShape shape, const double* x, double* y);
void batched_jacobi(const ShiftedPointers& m, BatchedShape shape, const double* r, double* z);
void batched_dot(BatchedShape shape, const double* u, const double* v, double* out);
void batched_cg_update(BatchedShape shape, const double* alpha, const double* p, const double* q, double* x, double* r);
void batched_direction(BatchedShape shape, const double* beta, const double* z, double* p);
void batched_add(BatchedShape shape, const double* value, double* v);
// Shapes of one row: the systems [begin, end) of S.
void batched_finish_curvature(BatchedShape shape, double* state, const double* sigma);
void batched_finish_residual(BatchedShape shape, double* state, const double* rho_new, const double* gamma);

}  // namespace miniapp::fft::cpu
