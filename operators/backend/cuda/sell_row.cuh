#pragma once
// One row of a sliced-ELLPACK product, shared by the SpMV kernels (spmv.cu) and the fused CG SpMV
// (cg_kernels.cu) so that both compute y_i with the same operations in the same order, and by the
// AIP's float passes (aip_kernels.cu) for the same loads (nvcc only).
#include <cstdint>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/device_matrix.hpp"

namespace miniapp::cuda::detail {

// Entries of a row loaded together before any of them is used: the rows of the FV operators store 4
// to 8 entries (slice width), so one chunk usually covers the row and a thread has all its loads of
// val and col in flight at once, then all its gathers of x, instead of one dependent pair per entry.
inline constexpr int sell_chunk = 8;

// Σ_k val[e_k] · x(col[e_k]) over the stored entries e_0 < e_1 < ... of `row` of a sELL matrix with
// slices of h rows and values of type Value (widened to double), summed in stored order, one fused
// multiply-add per entry, as the CPU reference sums (padding adds exact zeros); x(c) gives the gathered
// value of column c. The slice is column-major: entry k of the row is at slice_ptr[s] + k·h + row mod h,
// so a warp reads 32 consecutive values and indices per entry. With Stream, val and col (read once per
// product) are loaded with the streaming hint (__ldcs, evict first) so that they do not push the
// gathered vectors, which neighbouring rows reuse, out of L2.
template <bool Stream, class Value, class Gather>
__device__ inline double sell_row_sum(const index_t* slice_ptr, const index_t* col, const Value* val, index_t h,
                                      index_t row, Gather x) {
  const index_t s = row / h;
  const index_t end = __ldg(slice_ptr + s + 1);
  double sum = 0.0;
  // 64-bit positions: e + k·h may pass 2^31 − 1 on the last chunk of a matrix near the index limit.
  for (std::int64_t e = __ldg(slice_ptr + s) + row % h; e < end; e += sell_chunk * h) {
    index_t c[sell_chunk];
    Value v[sell_chunk];
#pragma unroll
    for (int k = 0; k < sell_chunk; ++k) {
      const bool stored = e + k * h < end;
      c[k] = stored ? (Stream ? __ldcs(col + e + k * h) : col[e + k * h]) : 0;
      v[k] = stored ? (Stream ? __ldcs(val + e + k * h) : val[e + k * h]) : Value(0);
    }
#pragma unroll
    for (int k = 0; k < sell_chunk; ++k)
      if (e + k * h < end) sum += static_cast<double>(v[k]) * x(c[k]);
  }
  return sum;
}

// y_i of the operators' sELL SpMV, streaming the matrix; x goes through the read-only path (__ldg).
__device__ inline double sell_row_product(const SellView& a, index_t row, const double* __restrict__ x) {
  return sell_row_sum<true>(a.slice_ptr, a.col, a.val, a.slice_height, row, [&](index_t c) { return __ldg(x + c); });
}

}  // namespace miniapp::cuda::detail
