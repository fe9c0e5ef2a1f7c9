// The AIP apply of the CUDA backend: y = G r and z = Gᵀ y as two sELL passes over float values (one
// thread per row, double sums), then ρ = r·z by the CG backend's cg_rho. With a scalar block every
// kernel first reads its status and returns once the solve has stopped, as the fused CG kernels do.
#include "operators/backend/cuda/aip_kernels.hpp"
#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/kernels.hpp"

namespace miniapp::cuda {
namespace {

using detail::block_size;

// y_i = Σ_k val · x[col] over the stored entries of row i (padding has value 0), in stored order.
__global__ void __launch_bounds__(block_size)
    sell_float_kernel(SellFloatView a, const double* __restrict__ x, double* __restrict__ y, const double* slots) {
  if (slots && cg::stopped(slots)) return;
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;
  const index_t h = a.slice_height, slice = static_cast<index_t>(row) / h;
  const index_t begin = a.slice_ptr[slice], width = (a.slice_ptr[slice + 1] - begin) / h;
  double sum = 0.0;
  for (index_t e = 0, k = begin + static_cast<index_t>(row) % h; e < width; ++e, k += h)
    sum += static_cast<double>(a.val[k]) * x[a.col[k]];
  y[row] = sum;
}

}  // namespace

void aip_apply(void* stream, const AipFactorView& f, const double* r, double* z, const cg::ScalarsView& s) {
  if (f.g.rows == 0) return;
  const cudaStream_t st = detail::as_stream(stream);
  sell_float_kernel<<<detail::blocks_for(f.g.rows), block_size, 0, st>>>(f.g, r, f.work, s.slots);
  MINIAPP_CUDA_CHECK_LAUNCH("sell_float_kernel (G r)");
  sell_float_kernel<<<detail::blocks_for(f.gt.rows), block_size, 0, st>>>(f.gt, f.work, z, s.slots);
  MINIAPP_CUDA_CHECK_LAUNCH("sell_float_kernel (Gt y)");
  if (s.slots) cg_rho(stream, f.g.rows, r, z, s);
}

}  // namespace miniapp::cuda
