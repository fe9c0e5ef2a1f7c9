#include <array>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp::cpu {

// Summed per chunk in chunk order (chunked_sums): the same result on any thread count.
double dot(index_t n, const double* x, const double* y) {
  double partials[max_sum_chunks], sum[1];
  chunked_sums(n, chunk_rows(n), partials, sum, [&](index_t begin, index_t end, double* acc) {
    add_lane_sums<1>(begin, end, acc, [&](index_t i) { return std::array<double, 1>{x[i] * y[i]}; });
  });
  return sum[0];
}

namespace {

// One pass over i for all K pairs: vectors shared between pairs are read from cache once.
template <int K>
void multi_dot(index_t n, const double* const* x, const double* const* y, double* out) {
  double partials[K * max_sum_chunks], sum[K];
  chunked_sums(n, chunk_rows(n), partials, sum, [&](index_t begin, index_t end, double* acc) {
    add_lane_sums<K>(begin, end, acc, [&](index_t i) {
      std::array<double, K> t;
      for (int j = 0; j < K; ++j) t[j] = x[j][i] * y[j][i];
      return t;
    });
  });
  for (int j = 0; j < K; ++j) out[j] = sum[j];
}

}  // namespace

void multi_dot(index_t n, int k, const double* const* x, const double* const* y, double* out) {
  static_assert(max_fused_dots == 4, "one instance per pair count");
  switch (k) {
    case 1: return multi_dot<1>(n, x, y, out);
    case 2: return multi_dot<2>(n, x, y, out);
    case 3: return multi_dot<3>(n, x, y, out);
    default: return multi_dot<4>(n, x, y, out);
  }
}

}  // namespace miniapp::cpu
