#pragma once
// One row of a CSR product a warp per row, shared by the CSR SpMV (spmv.cu) and the fused SpMVs
// (fused_spmv.cu) for matrices of few, long rows (the AMG hierarchy's small levels and coarse inverse):
// the lanes read the row's entries side by side, 32 at a time, and their partial sums are added across
// the warp, so a row's time is a few rounds of loads instead of one chain as long as the row (nvcc only).
#include <cstdint>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/device_matrix.hpp"

namespace miniapp::cuda::detail {

inline constexpr int warp_size = 32;

// Blocks of block_size threads that give each of `rows` rows a warp.
inline unsigned warp_row_blocks(index_t rows) {
  return static_cast<unsigned>((static_cast<std::int64_t>(rows) * warp_size + block_size - 1) / block_size);
}

// The warp's row and this thread's lane; the row is warp-uniform, so a warp past the last row returns whole.
struct WarpRow {
  std::int64_t row;
  int lane;
};
__device__ inline WarpRow warp_row() {
  return {global_thread() / warp_size, static_cast<int>(threadIdx.x % warp_size)};
}

// Σ_p val[p] · x[col[p]] over the entries of `row`, complete in lane 0 (partial in the others).
__device__ inline double csr_row_sum_warp(const CsrView& a, std::int64_t row, int lane, const double* __restrict__ x) {
  const index_t end = __ldg(a.row_ptr + row + 1);
  double sum = 0.0;
  for (index_t p = __ldg(a.row_ptr + row) + lane; p < end; p += warp_size)
    sum += __ldg(a.val + p) * __ldg(x + __ldg(a.col + p));
  for (int offset = warp_size / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  return sum;
}

}  // namespace miniapp::cuda::detail
