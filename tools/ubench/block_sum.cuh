#pragma once
// The block sum of the probes in this folder: the sum of v over a block of `Threads` threads (a
// multiple of 32), in thread 0; `shared` holds Threads / 32 doubles. Every thread of the block calls it.

template <int Threads>
__device__ double block_sum(double v, double* shared) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = v;
  __syncthreads();
  double s = 0;
  if (threadIdx.x < 32) {
    s = threadIdx.x < Threads / 32 ? shared[threadIdx.x] : 0.0;
    for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  }
  __syncthreads();
  return s;  // in thread 0
}
