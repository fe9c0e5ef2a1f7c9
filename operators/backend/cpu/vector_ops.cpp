#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"

namespace miniapp::cpu {

// A zero coefficient skips its input entirely (not 0 · input), so NaN there cannot propagate.
void waxpby(index_t n, double a, const double* x, double b, const double* y, double* w) {
  if (a == 0.0 && b == 0.0) {
    fill(n, 0.0, w);
  } else if (b == 0.0) {
#pragma omp parallel for simd schedule(static) if (worth_parallel(n))
    for (index_t i = 0; i < n; ++i) w[i] = a * x[i];
  } else if (a == 0.0) {
#pragma omp parallel for simd schedule(static) if (worth_parallel(n))
    for (index_t i = 0; i < n; ++i) w[i] = b * y[i];
  } else {
#pragma omp parallel for simd schedule(static) if (worth_parallel(n))
    for (index_t i = 0; i < n; ++i) w[i] = a * x[i] + b * y[i];
  }
}

// In place: each w[i] = y[i] is read before it is written, at the same index.
void axpby(index_t n, double a, const double* x, double b, double* y) { waxpby(n, a, x, b, y, y); }

void pointwise_multiply(index_t n, const double* x, const double* y, double* z) {
#pragma omp parallel for simd schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) z[i] = x[i] * y[i];
}

void accumulate_product(index_t n, double a, const double* x, const double* y, double* z) {
#pragma omp parallel for simd schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) z[i] += a * (x[i] * y[i]);
}

void fill(index_t n, double value, double* y) {
#pragma omp parallel for simd schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) y[i] = value;
}

void copy(index_t n, const double* x, double* y) {
#pragma omp parallel for simd schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) y[i] = x[i];
}

}  // namespace miniapp::cpu
