// The eigenvalue bound's power iterations, the prolongation's smoothing and the transpose of AMG's
// set-up on the device (level_kernels.hpp). Every sum runs in the host code's order and every
// operation is rounded on its own (__dmul_rn, __dadd_rn, __ddiv_rn: nvcc would otherwise fuse a
// product and a sum), so the results are the host's bits.
#include "solvers/amg/cuda/level_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "operators/backend/cuda/check.cuh"
#include "solvers/amg/aggregation_rules.hpp"  // mix_bits, weak_link
#include "operators/backend/cuda/stream_scratch.cuh"
#include "solvers/amg/cuda/setup_launch.cuh"

namespace miniapp::amg::cuda {
namespace {

using miniapp::cuda::detail::as_stream;
using miniapp::cuda::detail::global_thread;
using detail::per_item;
using miniapp::cuda::detail::read_one;
using miniapp::cuda::detail::StreamScratch;
using aggregation_rules::weak_link;

__global__ void gershgorin_rows(CsrView a, const double* __restrict__ d, double* __restrict__ bound) {
  const std::int64_t i = global_thread();
  if (i >= a.rows) return;
  double sum = 0;
  for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum = __dadd_rn(sum, fabs(a.val[k]));
  bound[i] = __ddiv_rn(sum, d[i]);
}

__global__ void start_vector(index_t n, const double* __restrict__ d, double* __restrict__ scale, double* __restrict__ v) {
  const std::int64_t i = global_thread();
  if (i >= n) return;
  scale[i] = __ddiv_rn(1.0, __dsqrt_rn(d[i]));
  const auto bits = static_cast<double>(mix_bits(static_cast<std::uint64_t>(i)) >> 11);
  v[i] = __dsub_rn(__dmul_rn(bits, 0x1p-52), 1.0);
}

__global__ void scaled_product_rows(CsrView a, const double* __restrict__ scale, const double* __restrict__ u,
                                    double* __restrict__ v) {
  const std::int64_t i = global_thread();
  if (i >= a.rows) return;
  double sum = 0;
  for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum = __dadd_rn(sum, __dmul_rn(a.val[k], u[a.col[k]]));
  v[i] = __dmul_rn(scale[i], sum);
}

// A warp per chunk: lane l adds the squares of the chunk's entries l, l + 32, ... in order, lane 0
// then the lanes' sums in order (amg::chunk_sum_of_squares).
__global__ void chunk_squares(index_t n, index_t chunk, const double* __restrict__ v, double* __restrict__ partial) {
  const std::int64_t c = global_thread() / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t first = c * chunk;
  if (first >= n) return;
  const std::int64_t last = first + chunk < n ? first + chunk : n;
  double s = 0;
  for (std::int64_t i = first + lane; i < last; i += 32) s = __dadd_rn(s, __dmul_rn(v[i], v[i]));
  double sum = 0;
  for (int l = 0; l < 32; ++l) sum = __dadd_rn(sum, __shfl_sync(0xffffffffu, s, l));
  if (lane == 0) partial[c] = sum;
}

__global__ void scale_divide(index_t n, const double* __restrict__ scale, const double* __restrict__ v, double length,
                             double* __restrict__ u) {
  const std::int64_t i = global_thread();
  if (i < n) u[i] = __ddiv_rn(__dmul_rn(scale[i], v[i]), length);
}

__global__ void diagonal_of_rows(CsrView a, double* __restrict__ d) {
  const std::int64_t i = global_thread();
  if (i >= a.rows) return;
  double value = 0;
  for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
    if (a.col[k] == i) value = a.val[k];
  d[i] = value;
}

__global__ void smooth_rows(CsrView p, double* __restrict__ val, const double* __restrict__ d, double omega,
                            const index_t* __restrict__ of_row) {
  const std::int64_t i = global_thread();
  if (i >= p.rows) return;
  const double scale = __ddiv_rn(-omega, d[i]);
  for (index_t k = p.row_ptr[i]; k < p.row_ptr[i + 1]; ++k)
    val[k] = __dadd_rn(__dmul_rn(val[k], scale), p.col[k] == of_row[i] ? 1.0 : 0.0);
}

__global__ void count_columns(CsrView a, index_t* __restrict__ count) {
  const std::int64_t k = global_thread();
  const index_t entries = a.row_ptr[a.rows];
  if (k < entries) atomicAdd(&count[a.col[k]], 1);
}

// Each entry (i, j) of a to the next free place of row j of the transpose, in no particular order.
__global__ void scatter_entries(CsrView a, index_t* __restrict__ cursor, index_t* __restrict__ col,
                                double* __restrict__ val) {
  const std::int64_t i = global_thread();
  if (i >= a.rows) return;
  for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
    const index_t at = atomicAdd(&cursor[a.col[k]], 1);
    col[at] = static_cast<index_t>(i);
    val[at] = a.val[k];
  }
}

__global__ void add_counts(index_t n, const index_t* __restrict__ counts, unsigned long long* __restrict__ total) {
  const std::int64_t i = global_thread();
  const unsigned count = i < n ? static_cast<unsigned>(counts[i]) : 0u;
  // A warp's counts fit in 32 bits (each row's below 2³¹ / 32 in every use here); the total may not.
  const unsigned warp_sum = __reduce_add_sync(0xffffffffu, count);
  if (threadIdx.x % 32 == 0 && warp_sum > 0) atomicAdd(total, static_cast<unsigned long long>(warp_sum));
}

__global__ void filter_counts(CsrView a, const double* __restrict__ d, double threshold_squared,
                              index_t* __restrict__ counts, int* __restrict__ dropped_any) {
  const std::int64_t i = global_thread();
  if (i >= a.rows) return;
  index_t kept = 0;
  for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
    const index_t j = a.col[k];
    kept += j == i || !weak_link(a.val[k], d[i], d[j], threshold_squared);
  }
  counts[i] = kept;
  if (kept < a.row_ptr[i + 1] - a.row_ptr[i]) *dropped_any = 1;
}

__global__ void filter_rows(CsrView a, const double* __restrict__ d, double threshold_squared,
                            const index_t* __restrict__ row_ptr, index_t* __restrict__ col, double* __restrict__ val) {
  const std::int64_t i = global_thread();
  if (i >= a.rows) return;
  double dropped = 0;
  index_t at = row_ptr[i], diagonal = at;
  for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
    const index_t j = a.col[k];
    if (j != i && weak_link(a.val[k], d[i], d[j], threshold_squared)) {
      dropped = __dadd_rn(dropped, a.val[k]);
      continue;
    }
    if (j == i) diagonal = at;
    col[at] = j;
    val[at++] = a.val[k];
  }
  const double lumped = __dadd_rn(val[diagonal], dropped);
  if (lumped > 0) val[diagonal] = lumped;
}

__global__ void tentative(index_t n, const index_t* __restrict__ of_row, index_t* __restrict__ row_ptr,
                          index_t* __restrict__ col, double* __restrict__ val) {
  const std::int64_t i = global_thread();
  if (i > n) return;
  row_ptr[i] = static_cast<index_t>(i);
  if (i == n) return;
  col[i] = of_row[i];
  val[i] = 1.0;
}

}  // namespace

std::int64_t row_offsets(void* stream, index_t rows, const index_t* counts, index_t* row_ptr) {
  const cudaStream_t s = as_stream(stream);
  MINIAPP_CUDA_CHECK(cudaMemsetAsync(row_ptr, 0, sizeof(index_t), s));
  if (rows == 0) return 0;
  StreamScratch<unsigned long long> total(s, 1);
  MINIAPP_CUDA_CHECK(cudaMemsetAsync(total.get(), 0, sizeof(unsigned long long), s));
  per_item(s, "add_counts", add_counts, rows, rows, counts, total.get());
  const auto entries = static_cast<std::int64_t>(read_one(s, total.get()));
  if (entries > std::numeric_limits<index_t>::max()) return entries;
  std::size_t bytes = 0;
  MINIAPP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, counts, row_ptr + 1, rows, s));
  StreamScratch<unsigned char> space(s, bytes);
  MINIAPP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(space.get(), bytes, counts, row_ptr + 1, rows, s));
  MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
  return entries;
}

bool filtered_row_counts(void* stream, const CsrView& a, const double* d, double threshold_squared, index_t* counts) {
  if (a.rows == 0) return false;
  const cudaStream_t s = as_stream(stream);
  StreamScratch<int> dropped_any(s, 1);
  MINIAPP_CUDA_CHECK(cudaMemsetAsync(dropped_any.get(), 0, sizeof(int), s));
  per_item(s, "filter_counts", filter_counts, a.rows, a, d, threshold_squared, counts, dropped_any.get());
  return read_one(s, dropped_any.get()) != 0;
}

void filtered_rows(void* stream, const CsrView& a, const double* d, double threshold_squared, const index_t* row_ptr,
                   index_t* col, double* val) {
  if (a.rows > 0) per_item(as_stream(stream), "filter_rows", filter_rows, a.rows, a, d, threshold_squared, row_ptr, col, val);
}

void tentative_rows(void* stream, index_t n, const index_t* of_row, index_t* row_ptr, index_t* col, double* val) {
  per_item(as_stream(stream), "tentative", tentative, static_cast<std::int64_t>(n) + 1, n, of_row, row_ptr, col, val);
}

double gershgorin_bound(void* stream, const CsrView& a, const double* d) {
  if (a.rows == 0) return 0;
  const cudaStream_t s = as_stream(stream);
  StreamScratch<double> row_bound(s, a.rows), bound(s, 1);
  per_item(s, "gershgorin_rows", gershgorin_rows, a.rows, a, d, row_bound.get());
  std::size_t bytes = 0;
  MINIAPP_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, bytes, row_bound.get(), bound.get(), a.rows, s));
  StreamScratch<unsigned char> space(s, bytes);
  MINIAPP_CUDA_CHECK(cub::DeviceReduce::Max(space.get(), bytes, row_bound.get(), bound.get(), a.rows, s));
  return std::max(0.0, read_one(s, bound.get()));  // the host's maximum starts from 0
}

void start_power_iterations(void* stream, index_t n, const double* d, double* scale, double* v) {
  if (n > 0) per_item(as_stream(stream), "start_vector", start_vector, n, n, d, scale, v);
}

void scaled_product(void* stream, const CsrView& a, const double* scale, const double* u, double* v) {
  if (a.rows > 0) per_item(as_stream(stream), "scaled_product_rows", scaled_product_rows, a.rows, a, scale, u, v);
}

void chunk_sums_of_squares(void* stream, index_t n, index_t chunk, const double* v, double* partial) {
  if (n > 0)
    per_item(as_stream(stream), "chunk_squares", chunk_squares, 32 * ((static_cast<std::int64_t>(n) + chunk - 1) / chunk), n,
             chunk, v, partial);
}

void scale_and_divide(void* stream, index_t n, const double* scale, const double* v, double length, double* u) {
  if (n > 0) per_item(as_stream(stream), "scale_divide", scale_divide, n, n, scale, v, length, u);
}

void row_diagonal(void* stream, const CsrView& a, double* d) {
  if (a.rows > 0) per_item(as_stream(stream), "diagonal_of_rows", diagonal_of_rows, a.rows, a, d);
}

void smooth_prolongation_rows(void* stream, const CsrView& product, double* val, const double* d, double omega,
                              const index_t* of_row) {
  if (product.rows > 0) per_item(as_stream(stream), "smooth_rows", smooth_rows, product.rows, product, val, d, omega, of_row);
}

void transpose(void* stream, const CsrView& a, index_t* row_ptr, index_t* col, double* val) {
  const cudaStream_t s = as_stream(stream);
  const index_t entries = read_one(s, a.row_ptr + a.rows);
  // Row lengths of the transpose, then their exclusive sums (one more, zero, entry gives the total).
  StreamScratch<index_t> count(s, static_cast<std::size_t>(a.cols) + 1), cursor(s, a.cols);
  MINIAPP_CUDA_CHECK(cudaMemsetAsync(count.get(), 0, sizeof(index_t) * (static_cast<std::size_t>(a.cols) + 1), s));
  if (entries > 0) per_item(s, "count_columns", count_columns, entries, a, count.get());
  std::size_t scan_bytes = 0;
  MINIAPP_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, count.get(), row_ptr, a.cols + 1, s));
  {
    StreamScratch<unsigned char> space(s, scan_bytes);
    MINIAPP_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(space.get(), scan_bytes, count.get(), row_ptr, a.cols + 1, s));
  }
  if (entries == 0) {
    MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
    return;
  }
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(cursor.get(), row_ptr, sizeof(index_t) * static_cast<std::size_t>(a.cols),
                                     cudaMemcpyDeviceToDevice, s));
  StreamScratch<index_t> scattered_col(s, entries);
  StreamScratch<double> scattered_val(s, entries);
  per_item(s, "scatter_entries", scatter_entries, a.rows, a, cursor.get(), scattered_col.get(), scattered_val.get());
  // Each row's columns are distinct, so sorting them by column leaves one order: the host's.
  std::size_t sort_bytes = 0;
  MINIAPP_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(nullptr, sort_bytes, scattered_col.get(), col, scattered_val.get(),
                                                         val, entries, a.cols, row_ptr, row_ptr + 1, s));
  StreamScratch<unsigned char> space(s, sort_bytes);
  MINIAPP_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(space.get(), sort_bytes, scattered_col.get(), col,
                                                         scattered_val.get(), val, entries, a.cols, row_ptr, row_ptr + 1, s));
  MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace miniapp::amg::cuda
