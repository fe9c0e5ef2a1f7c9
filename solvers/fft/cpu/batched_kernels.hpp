#pragma once
#include "solvers/fft/batched_shape.hpp"

// CPU (OpenMP over rows) reference of the batched frequency kernels (solvers/fft/batched_kernels.hpp):
// same contracts; called only through the front ends.
namespace miniapp::fft::cpu {

void batched_spmv(const ShiftedPointers& m, BatchedShape shape, const double* x, double* y);
void batched_jacobi(const ShiftedPointers& m, BatchedShape shape, const double* r, double* z);
void batched_column_sums(BatchedShape shape, const double* partials, double* out);
void batched_dot_partials(BatchedShape shape, index_t owned, const double* u, const double* v, double* partials);
void batched_spmv_dot(const ShiftedPointers& m, BatchedShape shape, index_t owned, const double* x, double* y,
                      double* partials, TileSpan tiles);
void batched_cg_update_jacobi(const ShiftedPointers& m, BatchedShape shape, index_t jacobi_begin, index_t owned,
                              const CgUpdateVectors& v, double* rz_partials, double* rr_partials);
void batched_direction(BatchedShape shape, const double* beta, const double* z, double* p);
void batched_direction_jacobi(const ShiftedPointers& m, BatchedShape shape, index_t jacobi_begin,
                              const DirectionVectors& v);
void batched_subtract_mean(BatchedShape shape, const double* sums, double count, double* v);
// Shapes of one row: the systems [begin, end) of S.
void batched_finish_curvature(BatchedShape shape, index_t tiles, double* state, const double* sigma);
void batched_finish_residual(BatchedShape shape, index_t tiles, double* state, const double* rho_new,
                             const double* gamma);
void batched_start(index_t systems, double* state, const double* sums, double tolerance);

}  // namespace miniapp::fft::cpu
