// The sELL layout written on the device from CSR rows copied there as they are (DeviceSell's
// upload) or made there: one thread per row, as fill_sell does on the host (operators/sparse/
// sell_matrix.cpp), and the slice offsets as sell_slice_offsets makes them.
#include "operators/backend/cuda/kernels.hpp"

#include <limits>

#include <cub/device/device_scan.cuh>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/stream_scratch.cuh"

namespace miniapp::cuda {
namespace {

using detail::block_size;

__global__ void __launch_bounds__(block_size)
    fill_sell_kernel(SellFillRows rows, const index_t* __restrict__ slice_ptr, const index_t* __restrict__ row_ptr,
                     const index_t* __restrict__ csr_col, const double* __restrict__ csr_val, index_t* __restrict__ col,
                     double* __restrict__ val) {
  const std::int64_t i = detail::global_thread();
  if (i >= rows.count) return;
  const index_t r = rows.first + static_cast<index_t>(i), h = rows.slice_height;
  const index_t slice = r / h;
  const index_t width = (slice_ptr[slice + 1] - slice_ptr[slice]) / h;
  const bool real = r < rows.matrix_rows;
  const index_t begin = real ? row_ptr[i] - rows.first_entry : 0;
  const index_t length = real ? row_ptr[i + 1] - row_ptr[i] : 0;
  const index_t first = slice_ptr[slice] + r % h;  // entry k at first + k · h
  for (index_t k = 0; k < length; ++k) val[first + k * h] = csr_val[begin + k];
  for (index_t k = length; k < width; ++k) val[first + k * h] = 0.0;
  if (!col) return;  // the values alone (csr_col not copied)
  for (index_t k = 0; k < length; ++k) col[first + k * h] = csr_col[begin + k];
  // Padding repeats the row's last column (an empty row's: its own index, kept inside the columns).
  const index_t pad_col = length > 0 ? csr_col[begin + length - 1] : min(r, rows.matrix_cols - 1);
  for (index_t k = length; k < width; ++k) col[first + k * h] = pad_col;
}

// width[s] = slice s's longest row times the slice height, in 64 bits (the sum may pass index_t).
__global__ void slice_widths(const index_t* __restrict__ row_ptr, index_t rows, index_t h, long long* __restrict__ width) {
  const std::int64_t s = detail::global_thread();
  const std::int64_t first = s * h;
  if (first >= rows) return;
  const std::int64_t last = first + h < rows ? first + h : rows;
  index_t longest = 0;
  for (std::int64_t r = first; r < last; ++r) longest = max(longest, row_ptr[r + 1] - row_ptr[r]);
  width[s] = static_cast<long long>(longest) * h;
}

__global__ void narrow_offsets(index_t n, const long long* __restrict__ wide, index_t* __restrict__ narrow) {
  const std::int64_t i = detail::global_thread();
  if (i < n) narrow[i] = static_cast<index_t>(wide[i]);
}

}  // namespace

index_t sell_slice_offsets(void* stream, const index_t* row_ptr, index_t rows, index_t slice_height, index_t* slice_ptr) {
  const cudaStream_t s = detail::as_stream(stream);
  const index_t slices = (rows + slice_height - 1) / slice_height;
  MINIAPP_CUDA_CHECK(cudaMemsetAsync(slice_ptr, 0, sizeof(index_t), s));
  if (slices == 0) return 0;
  const detail::StreamScratch<long long> wide(s, slices);  // widths, then their inclusive sums
  std::size_t bytes = 0;
  MINIAPP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, wide.get(), wide.get(), slices, s));
  const detail::StreamScratch<unsigned char> space(s, bytes);
  slice_widths<<<detail::blocks_for(slices), block_size, 0, s>>>(row_ptr, rows, slice_height, wide.get());
  MINIAPP_CUDA_CHECK_LAUNCH("slice_widths");
  MINIAPP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(space.get(), bytes, wide.get(), wide.get(), slices, s));
  const long long total = detail::read_one(s, wide.get() + slices - 1);
  if (total <= std::numeric_limits<index_t>::max()) {
    narrow_offsets<<<detail::blocks_for(slices), block_size, 0, s>>>(slices, wide.get(), slice_ptr + 1);
    MINIAPP_CUDA_CHECK_LAUNCH("narrow_offsets");
    MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
  }
  checked_index(static_cast<std::size_t>(total), "to_sell: stored entries with padding");
  return static_cast<index_t>(total);
}

void fill_sell(void* stream, const SellFillRows& rows, const index_t* slice_ptr, const index_t* row_ptr,
               const index_t* csr_col, const double* csr_val, index_t* col, double* val) {
  if (rows.count == 0) return;
  fill_sell_kernel<<<detail::blocks_for(rows.count), block_size, 0, detail::as_stream(stream)>>>(
      rows, slice_ptr, row_ptr, csr_col, csr_val, col, val);
  MINIAPP_CUDA_CHECK_LAUNCH("fill_sell_kernel");
}

}  // namespace miniapp::cuda
