// Dot products of the CUDA backend: up to four pairs reduced in one pass over the data, in one
// kernel launch.
//
// Grid-stride over element pairs (2j, 2j+1) with 16-byte loads, G = min(ceil(n / 512), 4 × SMs, 1024)
// blocks of 256 threads: 4 resident blocks per SM keep enough loads in flight to stream at the
// memory bandwidth, and a bounded grid keeps the final sum short. Each thread sums its pairs in
// index order, a block sums its threads with warp shuffles and writes one partial per pair; the last
// block to finish (atomic counter after a __threadfence) sums the G partials in a fixed order. The
// result is therefore deterministic for a given n and GPU, equal whether a pair is reduced alone
// (dot) or fused (multi_dot), and independent of the arrays' alignment. It goes to pinned host
// memory and is returned after one stream synchronize: the one host round-trip of the family, which
// is why PCG fuses its dots. Traffic: 8 bytes per distinct vector element read; sharing a vector
// between pairs (r·r and r·z) costs L1 hits, not DRAM.
#include <mutex>
#include <unordered_map>

#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/launch.cuh"
#include "operators/backend/cuda/block_sum.cuh"
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
  // Partials, final sums, then the block counter in the last double's slot: one allocation.
  const int count = max_reduction_pairs * (max_reduction_blocks + 1);
  try {
    MINIAPP_CUDA_CHECK(cudaMalloc(&w.d_partial, sizeof(double) * (count + 1)));
    MINIAPP_CUDA_CHECK(cudaMemset(w.d_partial, 0, sizeof(double) * (count + 1)));
    MINIAPP_CUDA_CHECK(cudaMallocHost(&w.h_result, sizeof(double) * max_reduction_pairs));
  } catch (...) {
    free_workspace(w);
    workspaces.erase(it);
    throw;
  }
  w.d_result = w.d_partial + max_reduction_pairs * max_reduction_blocks;
  w.d_blocks_done = reinterpret_cast<unsigned*>(w.d_partial + count);
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

// Resident blocks per SM of the dot kernel (see the file comment).
constexpr int dot_blocks_per_sm = 4;

template <int K>
struct PairSet {
  const double* x[K];
  const double* y[K];
};

using detail::block_sum;

template <int K, bool Vec>
__device__ inline void add_pair(const PairSet<K>& p, std::int64_t j, double (&sum)[K]) {
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const double2 a = detail::load_pair<Vec>(p.x[k], j), b = detail::load_pair<Vec>(p.y[k], j);
    sum[k] += a.x * b.x;
    sum[k] += a.y * b.y;
  }
}

// This thread's share of every x[k] · y[k], in index order. Two pairs per iteration so that each
// thread has 4K loads in flight.
template <int K, bool Vec>
__device__ void thread_sums(index_t n, const PairSet<K>& p, double (&sum)[K]) {
  const std::int64_t pairs = n / 2, stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t j = detail::global_thread();
  for (; j + stride < pairs; j += 2 * stride) {
    double a[K], b[K];
#pragma unroll
    for (int k = 0; k < K; ++k) a[k] = b[k] = 0.0;
    add_pair<K, Vec>(p, j, a);
    add_pair<K, Vec>(p, j + stride, b);
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += a[k] + b[k];
  }
  if (j < pairs) add_pair<K, Vec>(p, j, sum);
  if (detail::global_thread() == 0 && n % 2 != 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += p.x[k][n - 1] * p.y[k][n - 1];
  }
}

// result[k] = x[k] · y[k]. Every block writes its partials; the last block to finish sums them.
// `blocks_done` is 0 on entry and is left at 0.
template <int K, bool Vec>
__global__ void __launch_bounds__(block_size)
    dot_kernel(index_t n, PairSet<K> p, double* partial, unsigned* blocks_done, double* __restrict__ result) {
  double sum[K] = {};
  thread_sums<K, Vec>(n, p, sum);
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const double block_total = block_sum(sum[k]);
    if (threadIdx.x == 0) partial[k * gridDim.x + blockIdx.x] = block_total;
  }
  __shared__ bool last_block;
  if (threadIdx.x == 0) {
    __threadfence();  // this block's partials are visible device-wide before it is counted
    last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  for (int k = 0; k < K; ++k) {
    double s = 0.0;
    // __ldcg: from L2, where the other blocks' partials are (not a stale L1 line).
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) s += __ldcg(partial + k * gridDim.x + b);
    s = block_sum(s);
    if (threadIdx.x == 0) result[k] = s;
  }
  if (threadIdx.x == 0) *blocks_done = 0;
}

template <int K>
void launch_dot(cudaStream_t stream, index_t n, const double* const* x, const double* const* y,
                const detail::ReductionWorkspace& w) {
  PairSet<K> p{};
  bool aligned = true;
  for (int k = 0; k < K; ++k) {
    p.x[k] = x[k];
    p.y[k] = y[k];
    aligned = aligned && detail::aligned_16(x[k]) && detail::aligned_16(y[k]);
  }
  // The grid depends on n only (not on K or the alignment): dot and multi_dot sum in the same order.
  const unsigned blocks = std::min(detail::grid_stride_blocks(n / 2, dot_blocks_per_sm),
                                   static_cast<unsigned>(max_reduction_blocks));
  if (aligned) dot_kernel<K, true><<<blocks, block_size, 0, stream>>>(n, p, w.d_partial, w.d_blocks_done, w.d_result);
  else dot_kernel<K, false><<<blocks, block_size, 0, stream>>>(n, p, w.d_partial, w.d_blocks_done, w.d_result);
  MINIAPP_CUDA_CHECK_LAUNCH("dot_kernel");
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
  switch (k) {
    case 1: launch_dot<1>(s, n, x, y, w); break;
    case 2: launch_dot<2>(s, n, x, y, w); break;
    case 3: launch_dot<3>(s, n, x, y, w); break;
    default: launch_dot<4>(s, n, x, y, w); break;
  }
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
