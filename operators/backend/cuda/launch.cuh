#pragma once
// Launch geometry of the grid-stride kernels (vector_ops.cu, dot.cu, cg_kernels.cu) and the 16-byte
// access helpers they share (nvcc only).
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

// This thread's share of a grid-stride loop over the element pairs j < n / 2 (elements 2j, 2j + 1),
// two pairs per iteration (j and j + stride) with separate accumulators so that both pairs' loads are
// in flight together: pair(j, acc) adds pair j's terms into acc, one of two sets of K sums added into
// `sum` in a fixed order. The odd last element (n odd) is the caller's.
template <int K, class Pair>
__device__ inline void pair_sums(index_t n, Pair&& pair, double (&sum)[K]) {
  const std::int64_t pairs = n / 2, stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t j = global_thread();
  for (; j + stride < pairs; j += 2 * stride) {
    double a[K], b[K];
#pragma unroll
    for (int k = 0; k < K; ++k) a[k] = b[k] = 0.0;
    pair(j, a);
    pair(j + stride, b);
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += a[k] + b[k];
  }
  if (j < pairs) pair(j, sum);
}

}  // namespace miniapp::cuda::detail
