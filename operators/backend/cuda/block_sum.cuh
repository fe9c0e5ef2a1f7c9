#pragma once
// Block-wide sums for the reduction kernels (dot.cu, cg_kernels.cu): warp shuffles, then one warp
// over the per-warp partials, in a fixed order so that results are reproducible.
#include "operators/backend/cuda/check.cuh"

namespace miniapp::cuda::detail {

__device__ inline double warp_sum(double v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Sum of v over the block (blockDim.x == block_size), valid in thread 0. Ends with a barrier so that
// it can be called again at once.
__device__ inline double block_sum(double v) {
  __shared__ double warp_sums[block_size / 32];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < block_size / 32 ? warp_sums[threadIdx.x] : 0.0;
  if (threadIdx.x < 32) v = warp_sum(v);
  __syncthreads();
  return v;
}

}  // namespace miniapp::cuda::detail
