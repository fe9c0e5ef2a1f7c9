#include <array>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp::cpu {

namespace {

// One pass over i for all K pairs, summed per chunk in chunk order (row_sums): the same result on any
// thread count; vectors shared between pairs are read from cache once.
template <int K>
void multi_dot(index_t n, const double* const* x, const double* const* y, double* out) {
  double partials[K * max_sum_chunks], sum[K];
  row_sums(n, partials, sum, [&](index_t i) {
    std::array<double, K> t;
    for (int j = 0; j < K; ++j) t[j] = x[j][i] * y[j][i];
    return t;
  });
  for (int j = 0; j < K; ++j) out[j] = sum[j];
}

}  // namespace

double dot(index_t n, const double* x, const double* y) {
  double result;
  multi_dot<1>(n, &x, &y, &result);
  return result;
}

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
