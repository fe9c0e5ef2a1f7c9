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
// Interleaved blocks: one sELL matrix whose column k·j + d reads x_d[j], the row product of the plain
// SpMV with that gather (the vector chosen by predicated loads, not an indexed parameter array, which
// would go through local memory).
//
// CSR, one thread per row: uncoalesced (neighbouring threads read different rows' runs); a simple
// reference path for matrices not converted to sELL, not tuned.
#include <string>
#include <type_traits>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/csr_row.cuh"
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

template <int K>
struct InputSet {
  const double* x[K];
};

template <int K>
__global__ void __launch_bounds__(block_size) spmv_sell_interleaved_kernel(SellView a, InputSet<K> v,
                                                                             double* __restrict__ y) {
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;
  y[row] = detail::sell_row_sum<true>(a.slice_ptr, a.col, a.val, a.slice_height, static_cast<index_t>(row),
                                      [v](index_t c) {
                                        const index_t j = c / K;
                                        const index_t d = c - j * K;
                                        double value = 0.0;
#pragma unroll
                                        for (int k = 0; k < K; ++k)
                                          if (d == k) value = __ldg(v.x[k] + j);
                                        return value;
                                      });
}

template <int K>
void launch_interleaved(cudaStream_t stream, const SellView& a, const double* const* x, double* y) {
  InputSet<K> v{};
  for (int k = 0; k < K; ++k) v.x[k] = x[k];
  spmv_sell_interleaved_kernel<K><<<detail::blocks_for(a.rows), block_size, 0, stream>>>(a, v, y);
  MINIAPP_CUDA_CHECK_LAUNCH("spmv_sell_interleaved_kernel");
}

// launch(std::integral_constant<int, k>) for the vector counts the kernels are built for, 1 to 4.
template <class Launch>
void with_vector_count(int k, const char* kernel, Launch launch) {
  if (k < 1 || k > 4)
    throw Error(std::string("cuda::") + kernel + ": " + std::to_string(k) + " vectors requested, 1 to 4 supported");
  switch (k) {
    case 1: return launch(std::integral_constant<int, 1>{});
    case 2: return launch(std::integral_constant<int, 2>{});
    case 3: return launch(std::integral_constant<int, 3>{});
    default: return launch(std::integral_constant<int, 4>{});
  }
}

__global__ void spmv_csr_kernel(CsrView a, const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;
  const index_t end = __ldg(a.row_ptr + row + 1);
  double sum = 0.0;
  for (index_t p = __ldg(a.row_ptr + row); p < end; ++p) sum += __ldg(a.val + p) * __ldg(x + __ldg(a.col + p));
  y[row] = sum;
}

// The same a group of lanes per row (csr_row.cuh), for rows of many entries.
template <int Lanes>
__global__ void __launch_bounds__(block_size) spmv_csr_warp_kernel(CsrView a, const double* __restrict__ x,
                                                                     double* __restrict__ y) {
  const detail::WarpRow w = detail::lane_row<Lanes>();
  const double sum = detail::csr_row_sum<Lanes>(a, w.row, w.lane, x);
  if (w.lane == 0 && w.row < a.rows) y[w.row] = sum;
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

void spmv_csr_warp_rows(void* stream, const CsrView& a, const double* x, double* y) {
  if (a.rows == 0) return;
  detail::with_lanes(csr_lanes(a.rows, a.nnz), [&](auto lanes) {
    constexpr int l = decltype(lanes)::value;
    spmv_csr_warp_kernel<l><<<detail::lane_row_blocks<l>(a.rows), block_size, 0, detail::as_stream(stream)>>>(a, x, y);
  });
  MINIAPP_CUDA_CHECK_LAUNCH("spmv_csr_warp_kernel");
}

// y = Σ_d A_d x_d, 1 ≤ k ≤ 4 blocks interleaved by column in A. y may not alias an x_d.
void spmv_sell_interleaved(void* stream, const SellView& a, int k, const double* const* x, double* y) {
  with_vector_count(k, "spmv_sell_interleaved", [&](auto count) {
    if (a.rows > 0) launch_interleaved<decltype(count)::value>(detail::as_stream(stream), a, x, y);
  });
}

// y[i] = A x[i], i < k, 1 ≤ k ≤ 4, in one pass over A. No y[i] may alias an x[j].
void spmv_sell_multi(void* stream, const SellView& a, int k, const double* const* x, double* const* y) {
  with_vector_count(k, "spmv_sell_multi", [&](auto count) {
    if (a.rows > 0) launch_multi<decltype(count)::value>(detail::as_stream(stream), a, x, y);
  });
}

}  // namespace miniapp::cuda
