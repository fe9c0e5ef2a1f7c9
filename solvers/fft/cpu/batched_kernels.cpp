// CPU reference of the batched frequency kernels: OpenMP over rows, the systems of a row in the
// innermost loop (contiguous, vectorised by the compiler, as in thesis Algorithm 4).
#include "solvers/fft/cpu/batched_kernels.hpp"

#include "solvers/fft/batched_cg_scalars.hpp"

#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace miniapp::fft::cpu {

namespace {

std::size_t at(const BatchedShape& s, index_t row) { return static_cast<std::size_t>(row) * s.systems + s.begin; }

}  // namespace

// Algorithm 3: the shift term first, then A's entries in stored order (the CUDA kernel sums in the
// same order).
void batched_spmv(const ShiftedPointers& m, BatchedShape shape, const double* x, double* y) {
  const index_t w = shape.width();
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < shape.rows; ++c) {
    double* yc = y + at(shape, c);
    const double* xc = x + at(shape, c);
    const double* sigma = m.shifts ? m.shifts + shape.begin : nullptr;
    for (index_t s = 0; s < w; ++s) yc[s] = sigma ? sigma[s] * m.w[c] * xc[s] : 0.0;
    for (index_t i = m.a.row_ptr[c]; i < m.a.row_ptr[c + 1]; ++i) {
      const double v = m.a.val[i];
      const double* xj = x + at(shape, m.a.col[i]);
      for (index_t s = 0; s < w; ++s) yc[s] += v * xj[s];
    }
  }
}

void batched_jacobi(const ShiftedPointers& m, BatchedShape shape, const double* r, double* z) {
  const index_t w = shape.width();
  const double* sigma = m.shifts + shape.begin;
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < shape.rows; ++c)
    for (index_t s = 0; s < w; ++s) z[at(shape, c) + s] = r[at(shape, c) + s] / (m.diagonal[c] + sigma[s] * m.w[c]);
}

// Each thread sums a fixed block of rows; the blocks' sums are added in block order, so the result
// depends only on the thread count.
void batched_dot(BatchedShape shape, const double* u, const double* v, double* out) {
  const index_t w = shape.width();
  const int threads = omp_get_max_threads();
  std::vector<double> part(static_cast<std::size_t>(threads) * w, 0.0);
#pragma omp parallel num_threads(threads)
  {
    const std::int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
    double* mine = part.data() + t * w;
    for (index_t c = static_cast<index_t>(shape.rows * t / n); c < static_cast<index_t>(shape.rows * (t + 1) / n); ++c)
      for (index_t s = 0; s < w; ++s) mine[s] += u[at(shape, c) + s] * (v ? v[at(shape, c) + s] : 1.0);
  }
  for (index_t s = 0; s < w; ++s) {
    double sum = 0;
    for (int t = 0; t < threads; ++t) sum += part[static_cast<std::size_t>(t) * w + s];
    out[shape.begin + s] = sum;
  }
}

void batched_cg_update(BatchedShape shape, const double* alpha, const double* p, const double* q, double* x, double* r) {
  const index_t w = shape.width();
  const double* a = alpha + shape.begin;
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < shape.rows; ++c)
    for (index_t s = 0; s < w; ++s) {
      const std::size_t i = at(shape, c) + s;
      x[i] += a[s] * p[i];
      r[i] -= a[s] * q[i];
    }
}

void batched_direction(BatchedShape shape, const double* beta, const double* z, double* p) {
  const index_t w = shape.width();
  const double* b = beta + shape.begin;
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < shape.rows; ++c)
    for (index_t s = 0; s < w; ++s) p[at(shape, c) + s] = z[at(shape, c) + s] + b[s] * p[at(shape, c) + s];
}

void batched_add(BatchedShape shape, const double* value, double* v) {
  const index_t w = shape.width();
  const double* a = value + shape.begin;
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < shape.rows; ++c)
    for (index_t s = 0; s < w; ++s) v[at(shape, c) + s] += a[s];
}

void batched_finish_curvature(BatchedShape shape, double* state, const double* sigma) {
  for (index_t s = shape.begin; s < shape.end; ++s) batched_cg::finish_curvature(state, shape.systems, s, sigma[s]);
}

void batched_finish_residual(BatchedShape shape, double* state, const double* rho_new, const double* gamma) {
  for (index_t s = shape.begin; s < shape.end; ++s)
    batched_cg::finish_residual(state, shape.systems, s, rho_new[s], gamma[s]);
}

}  // namespace miniapp::fft::cpu
