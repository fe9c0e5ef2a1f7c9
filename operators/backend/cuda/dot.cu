// Dot products of the CUDA backend: up to four pairs reduced in one pass over the data.
//
// Two kernels, deterministic for a given n: pass 1 runs G = min(ceil(n / 256), 1024) blocks (depends
// on n only, not on the GPU); each thread sums its grid-stride elements in index order, a block sums
// its threads with warp shuffles and writes one partial per pair; pass 2, one block per pair, sums
// the G partials in a fixed tree. The result goes to pinned host memory and is returned after a
// stream synchronize: the one host round-trip of the family (≈ 10 µs latency, which is why PCG
// fuses its dots). Traffic: 8 bytes per distinct vector element read; sharing a vector between pairs
// (r·r and r·z) costs L1 hits, not DRAM.
#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/reduction_workspace.cuh"

namespace miniapp::cuda {
namespace detail {
namespace {

std::mutex workspace_mutex;
std::unordered_map<void*, ReductionWorkspace> workspaces;  // by stream

void free_workspace(const ReductionWorkspace& w) noexcept {
  cudaFree(w.d_partial);
  cudaFreeHost(w.h_result);
  cudaGetLastError();
}

}  // namespace

ReductionWorkspace& reduction_workspace(void* stream) {
  const std::lock_guard lock(workspace_mutex);
  auto [it, inserted] = workspaces.try_emplace(stream);
  if (!inserted) return it->second;
  ReductionWorkspace w;
  try {
    const int count = max_reduction_pairs * (max_reduction_blocks + 1);
    MINIAPP_CUDA_CHECK(cudaMalloc(&w.d_partial, sizeof(double) * count));
    MINIAPP_CUDA_CHECK(cudaMallocHost(&w.h_result, sizeof(double) * max_reduction_pairs));
  } catch (...) {
    free_workspace(w);
    workspaces.erase(it);
    throw;
  }
  w.d_result = w.d_partial + max_reduction_pairs * max_reduction_blocks;
  return it->second = w;
}

void release_reduction_workspace(void* stream) noexcept {
  const std::lock_guard lock(workspace_mutex);
  const auto it = workspaces.find(stream);
  if (it == workspaces.end()) return;
  free_workspace(it->second);
  workspaces.erase(it);
}

}  // namespace detail

namespace {

using detail::block_size;
using detail::max_reduction_blocks;
using detail::max_reduction_pairs;

template <int K>
struct PairSet {
  const double* x[K];
  const double* y[K];
};

__device__ inline double warp_sum(double v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Sum of v over the block (blockDim.x == block_size), valid in thread 0. Ends with a barrier so that
// it can be called again at once.
__device__ double block_sum(double v) {
  __shared__ double warp_sums[block_size / 32];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < block_size / 32 ? warp_sums[threadIdx.x] : 0.0;
  if (threadIdx.x < 32) v = warp_sum(v);
  __syncthreads();
  return v;
}

// Pass 1: partial[k * gridDim.x + block] = block's share of x[k] · y[k].
template <int K>
__global__ void __launch_bounds__(block_size) dot_partial_kernel(index_t n, PairSet<K> p, double* __restrict__ partial) {
  double sum[K] = {};
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = detail::global_thread(); i < n; i += stride) {
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += __ldg(p.x[k] + i) * __ldg(p.y[k] + i);
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const double block_total = block_sum(sum[k]);
    if (threadIdx.x == 0) partial[k * gridDim.x + blockIdx.x] = block_total;
  }
}

// Pass 2: block k sums the `blocks` partials of pair k into result[k].
__global__ void __launch_bounds__(block_size) dot_final_kernel(int blocks, const double* __restrict__ partial,
                                                               double* __restrict__ result) {
  const double* mine = partial + blockIdx.x * blocks;
  double sum = 0.0;
  for (int i = threadIdx.x; i < blocks; i += blockDim.x) sum += mine[i];
  sum = block_sum(sum);
  if (threadIdx.x == 0) result[blockIdx.x] = sum;
}

template <int K>
void launch_partial(cudaStream_t stream, index_t n, unsigned blocks, const double* const* x, const double* const* y,
                    double* partial) {
  PairSet<K> p{};
  for (int k = 0; k < K; ++k) {
    p.x[k] = x[k];
    p.y[k] = y[k];
  }
  dot_partial_kernel<K><<<blocks, block_size, 0, stream>>>(n, p, partial);
  MINIAPP_CUDA_CHECK_LAUNCH("dot_partial_kernel");
}

}  // namespace

// out[i] = x[i] · y[i] over n entries, i < k, 1 ≤ k ≤ 4. Synchronous: out is set on return.
void multi_dot(void* stream, index_t n, int k, const double* const* x, const double* const* y, double* out) {
  if (k < 1 || k > max_reduction_pairs)
    throw Error("cuda::multi_dot: " + std::to_string(k) + " pairs requested, 1 to " +
                std::to_string(max_reduction_pairs) + " supported");
  if (n == 0) {
    for (int i = 0; i < k; ++i) out[i] = 0.0;
    return;
  }
  const cudaStream_t s = detail::as_stream(stream);
  const detail::ReductionWorkspace& w = detail::reduction_workspace(stream);
  const unsigned blocks = std::min(detail::blocks_for(n), static_cast<unsigned>(max_reduction_blocks));
  switch (k) {
    case 1: launch_partial<1>(s, n, blocks, x, y, w.d_partial); break;
    case 2: launch_partial<2>(s, n, blocks, x, y, w.d_partial); break;
    case 3: launch_partial<3>(s, n, blocks, x, y, w.d_partial); break;
    default: launch_partial<4>(s, n, blocks, x, y, w.d_partial); break;
  }
  dot_final_kernel<<<k, block_size, 0, s>>>(static_cast<int>(blocks), w.d_partial, w.d_result);
  MINIAPP_CUDA_CHECK_LAUNCH("dot_final_kernel");
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(w.h_result, w.d_result, sizeof(double) * k, cudaMemcpyDeviceToHost, s));
  MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < k; ++i) out[i] = w.h_result[i];
}

// x · y over n entries. Synchronous.
double dot(void* stream, index_t n, const double* x, const double* y) {
  double result = 0.0;
  multi_dot(stream, n, 1, &x, &y, &result);
  return result;
}

}  // namespace miniapp::cuda
