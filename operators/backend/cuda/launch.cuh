#pragma once
// Launch geometry of the grid-stride kernels (vector_ops.cu, dot.cu) and the 16-byte access helpers
// they share (nvcc only).
#include <algorithm>
#include <cstdint>

#include "operators/backend/cuda/check.cuh"

namespace miniapp::cuda::detail {

// Streaming multiprocessors of the current device, queried once per device and cached.
int sm_count();

// Blocks of a grid-stride kernel over `items` work items (≥ 0): one item per thread while that
// fits in `blocks_per_sm` resident blocks per SM, never fewer than one block.
inline unsigned grid_stride_blocks(std::int64_t items, int blocks_per_sm) {
  const std::int64_t wanted = std::max<std::int64_t>(1, (items + block_size - 1) / block_size);
  return static_cast<unsigned>(std::min<std::int64_t>(wanted, std::int64_t{blocks_per_sm} * sm_count()));
}

// True when every pointer given allows 16-byte (double2) accesses. cudaMalloc'd arrays always do;
// a view that starts at an odd element does not.
inline bool aligned_16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Elements 2j and 2j+1 of p: one 128-bit load when Vec, two 64-bit loads otherwise. Both paths do
// the same arithmetic afterwards, so results do not depend on the alignment of the arrays.
template <bool Vec>
__device__ inline double2 load_pair(const double* p, std::int64_t j) {
  if constexpr (Vec) return reinterpret_cast<const double2*>(p)[j];
  else return make_double2(p[2 * j], p[2 * j + 1]);
}

template <bool Vec>
__device__ inline void store_pair(double* p, std::int64_t j, double2 v) {
  if constexpr (Vec) {
    reinterpret_cast<double2*>(p)[j] = v;
  } else {
    p[2 * j] = v.x;
    p[2 * j + 1] = v.y;
  }
}

}  // namespace miniapp::cuda::detail
