// The sELL layout written on the device from CSR rows copied there as they are (DeviceSell's
// upload): one thread per row, as fill_sell does on the host (operators/sparse/sell_matrix.cpp).
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/check.cuh"

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
  for (index_t k = 0; k < length; ++k) {
    col[first + k * h] = csr_col[begin + k];
    val[first + k * h] = csr_val[begin + k];
  }
  // Padding repeats the row's last column (an empty row's: its own index, kept inside the columns).
  const index_t pad_col = length > 0 ? csr_col[begin + length - 1] : min(r, rows.matrix_cols - 1);
  for (index_t k = length; k < width; ++k) {
    col[first + k * h] = pad_col;
    val[first + k * h] = 0.0;
  }
}

}  // namespace

void fill_sell(void* stream, const SellFillRows& rows, const index_t* slice_ptr, const index_t* row_ptr,
               const index_t* csr_col, const double* csr_val, index_t* col, double* val) {
  if (rows.count == 0) return;
  fill_sell_kernel<<<detail::blocks_for(rows.count), block_size, 0, detail::as_stream(stream)>>>(
      rows, slice_ptr, row_ptr, csr_col, csr_val, col, val);
  MINIAPP_CUDA_CHECK_LAUNCH("fill_sell_kernel");
}

}  // namespace miniapp::cuda
