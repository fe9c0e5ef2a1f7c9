// Dot products of the CUDA backend: up to four pairs reduced in one pass over the data, in one
// kernel launch.
//
// Grid-stride over element pairs (2j, 2j+1) with 16-byte loads, G = min(ceil(n / 512), 4 × SMs, 1024)
// blocks of 256 threads: 4 resident blocks per SM keep enough loads in flight to stream at the
// memory bandwidth (each thread has two pairs of every vector in flight, 64 KiB per SM for one dot),
// and a bounded grid keeps the final sum short. Each thread sums its pairs in a fixed order, a block
// sums its threads with warp shuffles and writes one partial per pair; the last block to finish sums
// the G partials in a fixed order (detail::grid_sum). The result is therefore deterministic for a
// given n and GPU, equal whether a pair is reduced alone (dot) or fused (multi_dot), and independent
// of the arrays' alignment. Traffic: 8 bytes per distinct vector element read; sharing a vector
// between pairs (r·r and r·z) costs L1 hits, not DRAM.
//
// Where the result goes is the cost that matters at large n: the synchronous dot has the last block
// write it straight into pinned, mapped host memory (no copy queued behind the kernel) and waits for
// the stream; dot_async leaves it in device memory and waits for nothing, as the reductions of PCG do:
// the synchronous form's host round trip (launch, completion, wake-up) is a large share of a dot's
// time even at 10⁷ entries.
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
    MINIAPP_CUDA_CHECK(cudaHostAlloc(&w.h_result, sizeof(double) * max_reduction_pairs, cudaHostAllocMapped));
    MINIAPP_CUDA_CHECK(cudaHostGetDevicePointer(&w.h_result_device, w.h_result, 0));
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

// Adds pair j's terms of every x[k] · y[k] into sum[k].
template <int K, bool Vec>
__device__ inline void add_pair(const PairSet<K>& p, std::int64_t j, double (&sum)[K]) {
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const double2 a = detail::load_pair<Vec>(p.x[k], j), b = detail::load_pair<Vec>(p.y[k], j);
    sum[k] += a.x * b.x;
    sum[k] += a.y * b.y;
  }
}

// result[k] = x[k] · y[k] (result in device or mapped host memory). `blocks_done` is 0 on entry and
// is left at 0.
template <int K, bool Vec>
__global__ void __launch_bounds__(block_size)
    dot_kernel(index_t n, PairSet<K> p, double* partial, unsigned* blocks_done, double* result) {
  double sum[K] = {};
  detail::pair_sums(n, [&](std::int64_t j, double(&acc)[K]) { add_pair<K, Vec>(p, j, acc); }, sum);
  if (detail::global_thread() == 0 && n % 2 != 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += p.x[k][n - 1] * p.y[k][n - 1];
  }
  detail::grid_sum(sum, partial, static_cast<int>(gridDim.x), blocks_done, [&](const double* total) {
#pragma unroll
    for (int k = 0; k < K; ++k) result[k] = total[k];
  });
}

template <int K>
void launch_dot(cudaStream_t stream, index_t n, const double* const* x, const double* const* y,
                const detail::ReductionWorkspace& w, double* result) {
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
  if (aligned) dot_kernel<K, true><<<blocks, block_size, 0, stream>>>(n, p, w.d_partial, w.d_blocks_done, result);
  else dot_kernel<K, false><<<blocks, block_size, 0, stream>>>(n, p, w.d_partial, w.d_blocks_done, result);
  MINIAPP_CUDA_CHECK_LAUNCH("dot_kernel");
}

// Queues out[i] = x[i] · y[i], i < k, with `out` in device (or mapped host) memory; w is the
// stream's workspace (looked up once by the caller: a mutex and a hash look-up per call).
void queue_multi_dot(void* stream, const detail::ReductionWorkspace& w, index_t n, int k, const double* const* x,
                     const double* const* y, double* out) {
  const cudaStream_t s = detail::as_stream(stream);
  switch (k) {
    case 1: launch_dot<1>(s, n, x, y, w, out); break;
    case 2: launch_dot<2>(s, n, x, y, w, out); break;
    case 3: launch_dot<3>(s, n, x, y, w, out); break;
    default: launch_dot<4>(s, n, x, y, w, out); break;
  }
}

void check_pair_count(int k, const char* function) {
  if (k < 1 || k > max_reduction_pairs)
    throw Error(std::string("cuda::") + function + ": " + std::to_string(k) + " pairs requested, 1 to " +
                std::to_string(max_reduction_pairs) + " supported");
}

}  // namespace

// out[i] = x[i] · y[i] over n entries, i < k, 1 ≤ k ≤ 4. Synchronous: out is set on return.
void multi_dot(void* stream, index_t n, int k, const double* const* x, const double* const* y, double* out) {
  check_pair_count(k, "multi_dot");
  if (n == 0) {
    for (int i = 0; i < k; ++i) out[i] = 0.0;
    return;
  }
  const detail::ReductionWorkspace& w = detail::reduction_workspace(stream);
  queue_multi_dot(stream, w, n, k, x, y, w.h_result_device);
  MINIAPP_CUDA_CHECK(cudaStreamSynchronize(detail::as_stream(stream)));
  for (int i = 0; i < k; ++i) out[i] = w.h_result[i];
}

// out[i] = x[i] · y[i] with out in device memory; asynchronous, the same kernel and order as multi_dot.
void multi_dot_async(void* stream, index_t n, int k, const double* const* x, const double* const* y, double* out) {
  check_pair_count(k, "multi_dot_async");
  if (n == 0) {
    MINIAPP_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(double) * k, detail::as_stream(stream)));
    return;
  }
  queue_multi_dot(stream, detail::reduction_workspace(stream), n, k, x, y, out);
}

// x · y over n entries. Synchronous.
double dot(void* stream, index_t n, const double* x, const double* y) {
  double result = 0.0;
  multi_dot(stream, n, 1, &x, &y, &result);
  return result;
}

// *result = x · y with result in device memory; asynchronous, the same kernel and order as dot.
void dot_async(void* stream, index_t n, const double* x, const double* y, double* result) {
  queue_multi_dot(stream, detail::reduction_workspace(stream), n, 1, &x, &y, result);
}

}  // namespace miniapp::cuda
