// C = A B for AMG's Galerkin products on the device (sparse_product.hpp). One warp per row of C: its
// lanes take a row of B 32 entries at a time, in order, so the row's products come in the host's
// (A's entry, B's entry) order; the warp keeps the row's columns in a hash set in shared memory and,
// once they are sorted, adds each chunk's terms into their columns' sums one after the other, each
// sum owned by one lane, which keeps the host's order of the sums.
#include "solvers/amg/cuda/sparse_product.hpp"

#include <cstdint>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/stream_scratch.cuh"

namespace miniapp::amg::cuda {
namespace {

using miniapp::cuda::detail::as_stream;

constexpr int warp = 32;
constexpr int warps_per_block = 4;
// Open addressing at most about half full: a row stops at product_row_capacity columns plus one chunk.
constexpr int table_size = 2 * product_row_capacity;
constexpr index_t empty_slot = -1;

// One warp's row in shared memory: the hash set of its columns (then, sorted, the columns themselves),
// the columns in the order found, their sums, and one chunk of terms.
struct RowTable {
  index_t table[table_size];
  index_t found[product_row_capacity + warp];
  double sum[product_row_capacity];
  index_t chunk_slot[warp];
  double chunk_value[warp];
  index_t count;
};

__device__ unsigned slot_of(index_t j) { return (static_cast<unsigned>(j) * 2654435761u) & (table_size - 1); }

__device__ void clear(RowTable& t, int lane) {
  for (int s = lane; s < table_size; s += warp) t.table[s] = empty_slot;
  if (lane == 0) t.count = 0;
  __syncwarp();
}

__device__ void insert(RowTable& t, index_t j) {
  for (unsigned s = slot_of(j);; s = (s + 1) & (table_size - 1)) {
    const index_t old = atomicCAS(&t.table[s], empty_slot, j);
    if (old == empty_slot) {
      t.found[atomicAdd(&t.count, 1)] = j;
      return;
    }
    if (old == j) return;
  }
}

// Gathers the distinct columns of row i of A B into t.found (t.count of them), stopping after the
// chunk that takes the count past product_row_capacity; returns whether the row fits.
__device__ bool gather_columns(const CsrView& a, const CsrView& b, index_t i, RowTable& t, int lane) {
  clear(t, lane);
  for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
    const index_t k = a.col[p], end = b.row_ptr[k + 1];
    for (index_t first = b.row_ptr[k]; first < end; first += warp) {
      if (first + lane < end) insert(t, b.col[first + lane]);
      __syncwarp();
      if (t.count > product_row_capacity) return false;
    }
  }
  return true;
}

// The position of column j among the row's sorted columns.
__device__ index_t position(const index_t* sorted, index_t m, index_t j) {
  index_t low = 0, high = m;
  while (low < high) {
    const index_t mid = (low + high) / 2;
    if (sorted[mid] < j) low = mid + 1;
    else high = mid;
  }
  return low;
}

__global__ void __launch_bounds__(warp* warps_per_block)
    count_kernel(CsrView a, CsrView b, index_t* __restrict__ counts, int* __restrict__ overflow) {
  __shared__ RowTable tables[warps_per_block];
  const int lane = threadIdx.x % warp;
  const std::int64_t row = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp;
  if (row >= a.rows) return;  // the whole warp
  RowTable& t = tables[threadIdx.x / warp];
  const auto i = static_cast<index_t>(row);
  const bool fits = gather_columns(a, b, i, t, lane);
  if (lane == 0) {
    counts[i] = t.count;
    if (!fits) *overflow = 1;
  }
}

__global__ void __launch_bounds__(warp* warps_per_block)
    fill_kernel(CsrView a, CsrView b, const index_t* __restrict__ row_ptr, index_t* __restrict__ col,
                double* __restrict__ val) {
  __shared__ RowTable tables[warps_per_block];
  const int lane = threadIdx.x % warp;
  const std::int64_t row = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp;
  if (row >= a.rows) return;
  RowTable& t = tables[threadIdx.x / warp];
  const auto i = static_cast<index_t>(row);
  gather_columns(a, b, i, t, lane);  // fits: the counts were checked
  const index_t m = t.count;
  // The hash set is done with: its storage takes the sorted columns, each placed by its rank.
  index_t* sorted = t.table;
  for (index_t e = lane; e < m; e += warp) {
    const index_t j = t.found[e];
    index_t rank = 0;
    for (index_t x = 0; x < m; ++x) rank += t.found[x] < j;
    sorted[rank] = j;
  }
  for (index_t e = lane; e < m; e += warp) t.sum[e] = 0.0;
  __syncwarp();
  for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
    const index_t k = a.col[p], end = b.row_ptr[k + 1];
    const double a_ik = a.val[p];
    for (index_t first = b.row_ptr[k]; first < end; first += warp) {
      if (first + lane < end) {
        t.chunk_slot[lane] = position(sorted, m, b.col[first + lane]);
        t.chunk_value[lane] = __dmul_rn(a_ik, b.val[first + lane]);
      }
      __syncwarp();
      const index_t terms = min(end - first, static_cast<index_t>(warp));
      for (index_t e = 0; e < terms; ++e) {
        const index_t s = t.chunk_slot[e];
        if (s % warp == lane) t.sum[s] = __dadd_rn(t.sum[s], t.chunk_value[e]);
      }
      __syncwarp();
    }
  }
  const index_t at = row_ptr[i];
  for (index_t e = lane; e < m; e += warp) {
    col[at + e] = sorted[e];
    val[at + e] = t.sum[e];
  }
}

unsigned blocks_for_rows(index_t rows) {
  return static_cast<unsigned>((static_cast<std::int64_t>(rows) + warps_per_block - 1) / warps_per_block);
}

}  // namespace

bool product_row_counts(void* stream, const CsrView& a, const CsrView& b, index_t* counts) {
  if (a.rows == 0) return true;
  const cudaStream_t s = as_stream(stream);
  const miniapp::cuda::detail::StreamScratch<int> overflow(s, 1);
  MINIAPP_CUDA_CHECK(cudaMemsetAsync(overflow.get(), 0, sizeof(int), s));
  count_kernel<<<blocks_for_rows(a.rows), warp * warps_per_block, 0, s>>>(a, b, counts, overflow.get());
  MINIAPP_CUDA_CHECK_LAUNCH("count_kernel");
  return miniapp::cuda::detail::read_one(s, overflow.get()) == 0;
}

void product_rows(void* stream, const CsrView& a, const CsrView& b, const index_t* row_ptr, index_t* col, double* val) {
  if (a.rows == 0) return;
  fill_kernel<<<blocks_for_rows(a.rows), warp * warps_per_block, 0, as_stream(stream)>>>(a, b, row_ptr, col, val);
  MINIAPP_CUDA_CHECK_LAUNCH("fill_kernel");
}

}  // namespace miniapp::amg::cuda
