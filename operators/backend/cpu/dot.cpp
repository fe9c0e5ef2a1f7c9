#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp::cpu {

double dot(index_t n, const double* x, const double* y) {
  double sum = 0.0;
#pragma omp parallel for simd schedule(static) reduction(+ : sum) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

// One pass over i for all k pairs: vectors shared between pairs are read from cache once.
void multi_dot(index_t n, int k, const double* const* x, const double* const* y, double* out) {
  double sum[max_fused_dots] = {};
#pragma omp parallel for schedule(static) reduction(+ : sum[:max_fused_dots]) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i)
    for (int j = 0; j < k; ++j) sum[j] += x[j][i] * y[j][i];
  for (int j = 0; j < k; ++j) out[j] = sum[j];
}

}  // namespace miniapp::cpu
