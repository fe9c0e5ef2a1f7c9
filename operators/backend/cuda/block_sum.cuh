#pragma once
// Block-wide and grid-wide sums for the reduction kernels (dot.cu, cg_kernels.cu): warp shuffles, then
// one warp over the per-warp partials, then one partial per block summed by the last block to
// finish. Every order is fixed, so results are reproducible for a given grid.
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

// Sums each thread's v[k] over the whole grid in one launch: every block writes its K block sums to
// partial[k * stride + blockIdx.x] (stride ≥ gridDim.x); the last block to finish (counted in *done
// after a fence) adds the partials of each k in block order and calls finish(sums) on thread 0, then
// resets *done to 0 for the next reduction on the stream. *done must be 0 on entry. Cost after the
// last block's own data: one pass over gridDim.x partials from L2 (≈ 1-2 µs), no second launch.
template <int K, class Finish>
__device__ void grid_sum(const double (&v)[K], double* partial, int stride, unsigned* done, Finish finish) {
  __shared__ bool last;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const double total = block_sum(v[k]);
    if (threadIdx.x == 0) partial[k * stride + blockIdx.x] = total;
  }
  if (threadIdx.x == 0) {
    __threadfence();  // the partials are visible device-wide before the count says so
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double sums[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    double t = 0.0;
    // __ldcg: from L2, where the other blocks' partials are (not a stale L1 line).
#pragma unroll 4
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) t += __ldcg(partial + k * stride + b);
    sums[k] = block_sum(t);
  }
  if (threadIdx.x == 0) {
    finish(sums);
    *done = 0;
  }
}

}  // namespace miniapp::cuda::detail
