// Fused SpMVs of the CUDA backend (operators/kernels/fused_spmv.hpp): each row's product handed to the
// epilogue instead of stored. sELL (double- or float-valued): one thread per row, summed as the plain
// sELL SpMV sums it (sell_row.cuh, the matrix streamed). CSR: a group of lanes per row (csr_row.cuh),
// the layout AMG keeps its small levels' matrices of long rows in.
#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/csr_row.cuh"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/sell_row.cuh"

namespace miniapp::cuda {
namespace {

using detail::block_size;

// View: SellView or SellFloatView.
template <class View, class Epilogue>
__global__ void __launch_bounds__(block_size) spmv_fused_kernel(View a, const double* __restrict__ x, Epilogue e) {
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;
  const auto r = static_cast<index_t>(row);
  e(r, detail::sell_row_sum<true>(a.slice_ptr, a.col, a.val, a.slice_height, r, [&](index_t c) { return __ldg(x + c); }));
}

template <int Lanes, class Epilogue>
__global__ void __launch_bounds__(block_size) csr_fused_warp_kernel(CsrView a, const double* __restrict__ x, Epilogue e) {
  const detail::WarpRow w = detail::lane_row<Lanes>();
  const double sum = detail::csr_row_sum<Lanes>(a, w.row, w.lane, x);
  if (w.lane == 0 && w.row < a.rows) e(static_cast<index_t>(w.row), sum);
}

template <class Epilogue>
void launch(void* stream, const CsrView& a, const double* x, const Epilogue& e) {
  if (a.rows == 0) return;
  detail::with_lanes(csr_lanes(a.rows, a.nnz), [&](auto lanes) {
    constexpr int l = decltype(lanes)::value;
    csr_fused_warp_kernel<l><<<detail::lane_row_blocks<l>(a.rows), block_size, 0, detail::as_stream(stream)>>>(a, x, e);
  });
  MINIAPP_CUDA_CHECK_LAUNCH("csr_fused_warp_kernel");
}

template <class View, class Epilogue>
void launch(void* stream, const View& a, const double* x, const Epilogue& e) {
  if (a.rows == 0) return;
  spmv_fused_kernel<<<detail::blocks_for(a.rows), block_size, 0, detail::as_stream(stream)>>>(a, x, e);
  MINIAPP_CUDA_CHECK_LAUNCH("spmv_fused_kernel");
}

}  // namespace

void spmv_fused(void* stream, const SellView& a, const double* x, const AxpbyEpilogue& e) { launch(stream, a, x, e); }
void spmv_fused(void* stream, const SellView& a, const double* x, const JacobiEpilogue& e) { launch(stream, a, x, e); }
void spmv_fused(void* stream, const SellFloatView& a, const double* x, const AxpbyEpilogue& e) {
  launch(stream, a, x, e);
}
void spmv_fused(void* stream, const SellFloatView& a, const double* x, const JacobiEpilogue& e) {
  launch(stream, a, x, e);
}
void spmv_fused(void* stream, const CsrView& a, const double* x, const AxpbyEpilogue& e) { launch(stream, a, x, e); }
void spmv_fused(void* stream, const CsrView& a, const double* x, const JacobiEpilogue& e) { launch(stream, a, x, e); }

}  // namespace miniapp::cuda
