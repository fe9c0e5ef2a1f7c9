#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp::cpu {

// Summed per chunk in chunk order (chunked_sums): the same result on any thread count.
double dot(index_t n, const double* x, const double* y) {
  double partials[max_sum_chunks], sum[1];
  chunked_sums(n, chunk_rows(n), partials, sum, [&](index_t begin, index_t end, double* acc) {
    double s = 0.0;
#pragma omp simd reduction(+ : s)
    for (index_t i = begin; i < end; ++i) s += x[i] * y[i];
    acc[0] = s;
  });
  return sum[0];
}

// One pass over i for all k pairs: vectors shared between pairs are read from cache once.
void multi_dot(index_t n, int k, const double* const* x, const double* const* y, double* out) {
  double partials[max_fused_dots * max_sum_chunks], sum[max_fused_dots];
  chunked_sums(n, chunk_rows(n), partials, sum, [&](index_t begin, index_t end, double* acc) {
    for (index_t i = begin; i < end; ++i)
      for (int j = 0; j < k; ++j) acc[j] += x[j][i] * y[j][i];
  });
  for (int j = 0; j < k; ++j) out[j] = sum[j];
}

}  // namespace miniapp::cpu
