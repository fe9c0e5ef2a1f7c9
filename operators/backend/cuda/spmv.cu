// SpMV kernels of the CUDA backend: sliced ELLPACK (the format of every operator in the time loop),
// its generalized form for up to four vectors, and a plain CSR path.
//
// sELL, one thread per row: a slice is stored column-major, so entry k of the slice's rows is
// contiguous; with the slice height a multiple of 32, a warp reads 32 consecutive values and column
// indices per step (fully coalesced) and needs no inter-thread reduction. Rows of a slice are padded
// to the slice's width only, so the padding waste is that of the slice, not of the longest matrix
// row. Traffic per call: stored entries × (8 + 4) bytes, slice pointers, x (gathered through the
// read-only cache, reused between neighbouring rows) and y once: the bound is memory bandwidth.
// The row product (sell_row.cuh) loads a whole row's entries before summing them, in stored order
// (padding adds exact zeros), as the CPU reference sums.
//
// Generalized SpMV: each matrix entry is loaded once and applied to k vectors, so k products cost
// one matrix read plus k x/y streams instead of k matrix reads (thesis §2.4).
//
// CSR, one thread per row: uncoalesced (neighbouring threads read different rows' runs); a simple
// reference path for matrices not converted to sELL, not tuned.
#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/sell_row.cuh"

namespace miniapp::cuda {
namespace {

using detail::block_size;

// Reads slice s's range and the lane of `row`; the thread then walks p = first, first + h, ... < end.
struct RowRange {
  index_t first, end, step;
};
__device__ inline RowRange sell_row(const SellView& a, index_t row) {
  const index_t s = row / a.slice_height;
  return {__ldg(a.slice_ptr + s) + row % a.slice_height, __ldg(a.slice_ptr + s + 1), a.slice_height};
}

__global__ void __launch_bounds__(block_size) spmv_sell_kernel(SellView a, const double* __restrict__ x,
                                                                 double* __restrict__ y) {
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;  // the last block, and the padded rows of the last slice
  y[row] = detail::sell_row_product(a, static_cast<index_t>(row), x);
}

// K vectors passed by value (kernel parameters live in constant memory, no device copy needed).
template <int K>
struct VectorSet {
  const double* x[K];
  double* y[K];
};

template <int K>
__global__ void spmv_sell_multi_kernel(SellView a, VectorSet<K> v) {
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;
  const RowRange r = sell_row(a, static_cast<index_t>(row));
  double sum[K] = {};
  for (index_t p = r.first; p < r.end; p += r.step) {
    const double value = __ldg(a.val + p);
    const index_t c = __ldg(a.col + p);
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += value * __ldg(v.x[k] + c);
  }
#pragma unroll
  for (int k = 0; k < K; ++k) v.y[k][row] = sum[k];
}

__global__ void spmv_csr_kernel(CsrView a, const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;
  const index_t end = __ldg(a.row_ptr + row + 1);
  double sum = 0.0;
  for (index_t p = __ldg(a.row_ptr + row); p < end; ++p) sum += __ldg(a.val + p) * __ldg(x + __ldg(a.col + p));
  y[row] = sum;
}

template <int K>
void launch_multi(cudaStream_t stream, const SellView& a, const double* const* x, double* const* y) {
  VectorSet<K> v{};
  for (int k = 0; k < K; ++k) {
    v.x[k] = x[k];
    v.y[k] = y[k];
  }
  spmv_sell_multi_kernel<K><<<detail::blocks_for(a.rows), block_size, 0, stream>>>(a, v);
  MINIAPP_CUDA_CHECK_LAUNCH("spmv_sell_multi_kernel");
}

}  // namespace

// y = A x for A in sELL (any slice height ≥ 1); x has a.cols entries, y a.rows, both device memory.
void spmv_sell(void* stream, const SellView& a, const double* x, double* y) {
  if (a.rows == 0) return;
  spmv_sell_kernel<<<detail::blocks_for(a.rows), block_size, 0, detail::as_stream(stream)>>>(a, x, y);
  MINIAPP_CUDA_CHECK_LAUNCH("spmv_sell_kernel");
}

// y = A x for A in CSR.
void spmv_csr(void* stream, const CsrView& a, const double* x, double* y) {
  if (a.rows == 0) return;
  spmv_csr_kernel<<<detail::blocks_for(a.rows), block_size, 0, detail::as_stream(stream)>>>(a, x, y);
  MINIAPP_CUDA_CHECK_LAUNCH("spmv_csr_kernel");
}

// y[i] = A x[i], i < k, 1 ≤ k ≤ 4, in one pass over A. No y[i] may alias an x[j].
void spmv_sell_multi(void* stream, const SellView& a, int k, const double* const* x, double* const* y) {
  if (k < 1 || k > 4)
    throw Error("cuda::spmv_sell_multi: " + std::to_string(k) + " vectors requested, 1 to 4 supported");
  if (a.rows == 0) return;
  const cudaStream_t s = detail::as_stream(stream);
  switch (k) {
    case 1: launch_multi<1>(s, a, x, y); break;
    case 2: launch_multi<2>(s, a, x, y); break;
    case 3: launch_multi<3>(s, a, x, y); break;
    default: launch_multi<4>(s, a, x, y); break;
  }
}

}  // namespace miniapp::cuda
