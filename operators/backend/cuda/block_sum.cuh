#pragma once
// Block-wide and grid-wide sums for the reduction kernels (dot.cu, cg_kernels.cu, aip_kernels.cu):
// warp shuffles, then one warp over the per-warp partials, then one partial per block summed by the
// last block to finish. Every order is fixed, so results are reproducible for a given grid.
#include "operators/backend/cuda/check.cuh"

namespace miniapp::cuda::detail {

__device__ inline double warp_sum(double v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Sums of each v[k] over the block (blockDim.x == block_size), valid in thread 0: the K values share
// one round through shared memory (two barriers for all of them). Ends with a barrier so that it can
// be called again at once. Each v[k] is summed in the same order whatever K.
template <int K>
__device__ inline void block_sums(double (&v)[K]) {
  __shared__ double warp_sums[K][block_size / 32];
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = warp_sum(v[k]);
  if (threadIdx.x % 32 == 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) warp_sums[k][threadIdx.x / 32] = v[k];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; ++k) {
    v[k] = threadIdx.x < block_size / 32 ? warp_sums[k][threadIdx.x] : 0.0;
    if (threadIdx.x < 32) v[k] = warp_sum(v[k]);
  }
  __syncthreads();
}

// Sum of v over the block, valid in thread 0 (block_sums of one value).
__device__ inline double block_sum(double v) {
  double one[1] = {v};
  block_sums(one);
  return one[0];
}

// Sums each thread's v[k] over the whole grid in one launch: every block writes its K block sums to
// partial[k * stride + blockIdx.x] (stride ≥ gridDim.x); the last block to finish (counted in *done
// after a fence) adds the partials of each k in block order and calls finish(sums) on thread 0, then
// resets *done to 0 for the next reduction on the stream. *done must be 0 on entry. Cost after the
// last block's own data: one pass over gridDim.x partials of every k from L2, their loads in flight
// together, no second launch.
template <int K, class Finish>
__device__ void grid_sum(const double (&v)[K], double* partial, int stride, unsigned* done, Finish finish) {
  __shared__ bool last;
  double block[K];
#pragma unroll
  for (int k = 0; k < K; ++k) block[k] = v[k];
  block_sums(block);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) partial[k * stride + blockIdx.x] = block[k];
    __threadfence();  // the partials are visible device-wide before the count says so
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double sums[K] = {};
  // __ldcg: from L2, where the other blocks' partials are (not a stale L1 line).
#pragma unroll 4
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
#pragma unroll
    for (int k = 0; k < K; ++k) sums[k] += __ldcg(partial + k * stride + b);
  }
  block_sums(sums);
  if (threadIdx.x == 0) {
    finish(sums);
    *done = 0;
  }
}

}  // namespace miniapp::cuda::detail
