// The AIP apply of the CUDA backend: y = G r and z = Gᵀ y as two sELL passes over float values (double
// sums); within a CG solve the second pass also forms ρ = r·z and runs cg::finish_rho, so the apply
// and the dot are one kernel each (the dot reads r, z is in registers), and it can take the
// iteration's residual test too (γ = r·r from the same r), leaving the update before it without a
// reduction. With a scalar block every
// kernel first reads its status and returns once the solve has stopped, as the fused CG kernels do.
#include "operators/backend/cuda/aip_kernels.hpp"
#include "operators/backend/cuda/block_sum.cuh"
#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/scalar_grid.cuh"

namespace miniapp::cuda {
namespace {

using detail::block_size;

// Σ_k val · x[col] over the stored entries of `row` (padding has value 0), in stored order.
__device__ inline double sell_float_row(const SellFloatView& a, index_t row, const double* __restrict__ x) {
  const index_t h = a.slice_height, slice = row / h;
  const index_t begin = a.slice_ptr[slice], width = (a.slice_ptr[slice + 1] - begin) / h;
  double sum = 0.0;
  for (index_t e = 0, k = begin + row % h; e < width; ++e, k += h) sum += static_cast<double>(a.val[k]) * x[a.col[k]];
  return sum;
}

// y = A x, one thread per row.
__global__ void __launch_bounds__(block_size)
    sell_float_kernel(SellFloatView a, const double* __restrict__ x, double* __restrict__ y, const double* slots) {
  if (slots && cg::stopped(slots)) return;
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;
  y[row] = sell_float_row(a, static_cast<index_t>(row), x);
}

// z = A x (the rows of sell_float_kernel, bitwise) and ρ = r·z, then β and ρ (cg::finish_rho); with
// ResidualTest also γ = r·r and, first, the iteration's residual test (cg::finish_residual). Grid-
// stride rows, at most cg::max_partials blocks (detail::scalar_grid).
template <bool ResidualTest>
__global__ void __launch_bounds__(block_size)
    sell_float_rho_kernel(SellFloatView a, const double* __restrict__ x, double* __restrict__ z,
                          const double* __restrict__ r, cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  constexpr int K = ResidualTest ? 2 : 1;
  double sums[K] = {};  // r·z, r·r
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t row = detail::global_thread(); row < a.rows; row += stride) {
    const double zi = sell_float_row(a, static_cast<index_t>(row), x), ri = r[row];
    z[row] = zi;
    sums[0] += ri * zi;
    if constexpr (ResidualTest) sums[1] += ri * ri;
  }
  detail::grid_sum(sums, s.partials, cg::max_partials, s.done, [&](const double* t) {
    if constexpr (ResidualTest) cg::finish_residual(s.slots, t[1]);
    cg::finish_rho(s.slots, t[0]);
  });
}

template <bool ResidualTest>
void launch_second_pass_with_rho(cudaStream_t st, const AipFactorView& f, const double* r, double* z,
                                 const cg::ScalarsView& s) {
  constexpr auto kernel = sell_float_rho_kernel<ResidualTest>;
  kernel<<<detail::scalar_grid<kernel>(f.gt.rows), block_size, 0, st>>>(f.gt, f.work, z, r, s);
  MINIAPP_CUDA_CHECK_LAUNCH("sell_float_rho_kernel (Gt y, r·z)");
}

}  // namespace

void aip_apply(void* stream, const AipFactorView& f, const double* r, double* z, const cg::ScalarsView& s,
               bool residual_test) {
  if (f.g.rows == 0) return;
  const cudaStream_t st = detail::as_stream(stream);
  sell_float_kernel<<<detail::blocks_for(f.g.rows), block_size, 0, st>>>(f.g, r, f.work, s.slots);
  MINIAPP_CUDA_CHECK_LAUNCH("sell_float_kernel (G r)");
  if (s.slots && residual_test) {
    launch_second_pass_with_rho<true>(st, f, r, z, s);
  } else if (s.slots) {
    launch_second_pass_with_rho<false>(st, f, r, z, s);
  } else {
    sell_float_kernel<<<detail::blocks_for(f.gt.rows), block_size, 0, st>>>(f.gt, f.work, z, nullptr);
    MINIAPP_CUDA_CHECK_LAUNCH("sell_float_kernel (Gt y)");
  }
}

}  // namespace miniapp::cuda
