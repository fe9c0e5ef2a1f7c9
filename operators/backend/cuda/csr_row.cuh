#pragma once
// One row of a CSR product by a group of lanes, shared by the CSR SpMV (spmv.cu) and the fused SpMVs
// (fused_spmv.cu) for matrices of long rows (the AMG hierarchy's small levels and coarse inverse): the
// group's lanes read the row's entries side by side and their partial sums are added across the group,
// so a row's time is a few rounds of loads instead of one chain as long as the row. A whole warp per
// row (warp_row) also serves the FFT path's batched products (nvcc only).
#include <cstdint>
#include <type_traits>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/device_matrix.hpp"

namespace miniapp::cuda::detail {

inline constexpr int warp_size = 32;

// This thread's row and its lane in the row's group.
struct WarpRow {
  std::int64_t row;
  int lane;
};

// Groups of Lanes consecutive lanes (a power of two, at most a warp), one per row.
template <int Lanes>
__device__ inline WarpRow lane_row() {
  return {global_thread() / Lanes, static_cast<int>(threadIdx.x % Lanes)};
}

// Blocks of block_size threads that give each of `rows` rows a group of Lanes lanes.
template <int Lanes>
inline unsigned lane_row_blocks(index_t rows) {
  return static_cast<unsigned>((static_cast<std::int64_t>(rows) * Lanes + block_size - 1) / block_size);
}

// A warp per row: the row is warp-uniform, so a warp past the last row may return whole.
__device__ inline WarpRow warp_row() { return lane_row<warp_size>(); }
inline unsigned warp_row_blocks(index_t rows) { return lane_row_blocks<warp_size>(rows); }

// Σ_p val[p] · x[col[p]] over the entries of `row`, complete in the group's lane 0 (partial in the
// others); 0 for a row past the end, whose lanes still take part in their warp's shuffles.
template <int Lanes>
__device__ inline double csr_row_sum(const CsrView& a, std::int64_t row, int lane, const double* __restrict__ x) {
  double sum = 0.0;
  if (row < a.rows) {
    const index_t end = __ldg(a.row_ptr + row + 1);
    for (index_t p = __ldg(a.row_ptr + row) + lane; p < end; p += Lanes)
      sum += __ldg(a.val + p) * __ldg(x + __ldg(a.col + p));
  }
  for (int offset = Lanes / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset, Lanes);
  return sum;
}

// launch(std::integral_constant<int, L>{}) for L = lanes (cuda::csr_lanes), one of 4, 8, 16 and 32.
template <class Launch>
void with_lanes(int lanes, Launch launch) {
  switch (lanes) {
    case 4: return launch(std::integral_constant<int, 4>{});
    case 8: return launch(std::integral_constant<int, 8>{});
    case 16: return launch(std::integral_constant<int, 16>{});
    default: return launch(std::integral_constant<int, 32>{});
  }
}

}  // namespace miniapp::cuda::detail
