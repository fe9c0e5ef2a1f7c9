#pragma once
// One row of a sliced-ELLPACK product, shared by the SpMV kernels (spmv.cu) and the fused CG SpMV
// (cg_kernels.cu) so that both compute y_i with the same operations in the same order (nvcc only).
#include <cstdint>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/device_matrix.hpp"

namespace miniapp::cuda::detail {

// Entries of a row loaded together before any of them is used: the rows of the FV operators store 4
// to 8 entries (slice width), so one chunk usually covers the row and a thread has all its loads of
// val and col in flight at once, then all its gathers of x, instead of one dependent pair per entry.
inline constexpr int sell_chunk = 8;

// Σ_k val[e_k] · x[col[e_k]] over the stored entries e_0 < e_1 < ... of `row` (row < a.rows), summed in
// stored order, one fused multiply-add per entry, as the CPU reference sums (padding adds exact
// zeros). The slice is column-major: entry k of the row is at slice_ptr[s] + k·h + row mod h, so a warp
// reads 32 consecutive values and indices per entry. val and col are read once per product: loaded
// with the streaming hint (__ldcs, evict first) so that they do not push x, which is gathered and
// reused by neighbouring rows, out of L2; x goes through the read-only path (__ldg).
__device__ inline double sell_row_product(const SellView& a, index_t row, const double* __restrict__ x) {
  const index_t h = a.slice_height, s = row / h;
  const index_t end = __ldg(a.slice_ptr + s + 1);
  double sum = 0.0;
  // 64-bit positions: e + k·h may pass 2^31 − 1 on the last chunk of a matrix near the index limit.
  for (std::int64_t e = __ldg(a.slice_ptr + s) + row % h; e < end; e += sell_chunk * h) {
    index_t c[sell_chunk];
    double v[sell_chunk];
#pragma unroll
    for (int k = 0; k < sell_chunk; ++k) {
      const bool stored = e + k * h < end;
      c[k] = stored ? __ldcs(a.col + e + k * h) : 0;
      v[k] = stored ? __ldcs(a.val + e + k * h) : 0.0;
    }
#pragma unroll
    for (int k = 0; k < sell_chunk; ++k)
      if (e + k * h < end) sum += v[k] * __ldg(x + c[k]);
  }
  return sum;
}

}  // namespace miniapp::cuda::detail
