// The AIP apply of the CUDA backend: y = G r and z = Gᵀ y as two sELL passes over float values (double
// sums); within a CG solve the second pass also forms ρ = r·z and runs cg::finish_rho, so the apply
// and the dot are one kernel each (the dot reads r, z is in registers). The CG update can join the two
// passes too (aip_apply_advancing): x += α p and the gathers of r − α q in the first, r ← r − α q with
// the residual test in the second, which reads r already: an AIP iteration is then three kernels.
// With a scalar block every kernel first reads its status and returns once the solve has stopped, as
// the fused CG kernels do.
#include "operators/backend/cuda/aip_kernels.hpp"
#include "operators/backend/cuda/block_sum.cuh"
#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/scalar_grid.cuh"

namespace miniapp::cuda {
namespace {

using detail::block_size;

// Σ_k val · x(col) over the stored entries of `row` (padding has value 0), in stored order; x(c) gives
// the gathered value of column c.
template <class Gather>
__device__ inline double sell_float_row(const SellFloatView& a, index_t row, Gather x) {
  const index_t h = a.slice_height, slice = row / h;
  const index_t begin = a.slice_ptr[slice], width = (a.slice_ptr[slice + 1] - begin) / h;
  double sum = 0.0;
  for (index_t e = 0, k = begin + row % h; e < width; ++e, k += h) sum += static_cast<double>(a.val[k]) * x(a.col[k]);
  return sum;
}

// y = A x, one thread per row.
__global__ void __launch_bounds__(block_size)
    sell_float_kernel(SellFloatView a, const double* __restrict__ x, double* __restrict__ y, const double* slots) {
  if (slots && cg::stopped(slots)) return;
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;
  y[row] = sell_float_row(a, static_cast<index_t>(row), [&](index_t c) { return x[c]; });
}

// The vectors of the CG update that the first pass carries (aip_apply_advancing).
struct AdvanceVectors {
  const double *p, *q, *r;
  double* x;
};

// The residual as the second pass reads it, and with Advance q and where r − α q is written (r itself).
struct ResidualVectors {
  const double *r, *q;
  double* r_new;
};

// The first pass with the update joined: y = G (r − α q), gathering r and q (r is written only by the
// second pass, so every thread gathers the old r), and x += α p at the thread's own row.
__global__ void __launch_bounds__(block_size)
    sell_float_advance_kernel(SellFloatView g, AdvanceVectors v, double* __restrict__ y, const double* slots) {
  if (cg::stopped(slots)) return;
  const std::int64_t row = detail::global_thread();
  if (row >= g.rows) return;
  const double alpha = slots[cg::alpha];
  y[row] = sell_float_row(g, static_cast<index_t>(row), [&](index_t c) { return v.r[c] - alpha * v.q[c]; });
  v.x[row] += alpha * v.p[row];
}

// z = A x (the rows of sell_float_kernel, bitwise) and ρ = r·z, then β and ρ (cg::finish_rho). With
// Advance, r ← r − α q first at each row (the value the first pass gathered), γ = r·r too and, before
// β, the iteration's residual test (cg::finish_residual). Grid-stride rows, at most cg::max_partials
// blocks (detail::scalar_grid).
template <bool Advance>
__global__ void __launch_bounds__(block_size)
    sell_float_rho_kernel(SellFloatView a, const double* __restrict__ x, double* __restrict__ z, ResidualVectors v,
                          cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  constexpr int K = Advance ? 2 : 1;
  const double alpha = Advance ? s.slots[cg::alpha] : 0.0;
  double sums[K] = {};  // r·z, r·r
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t row = detail::global_thread(); row < a.rows; row += stride) {
    const double zi = sell_float_row(a, static_cast<index_t>(row), [&](index_t c) { return x[c]; });
    z[row] = zi;
    double ri = v.r[row];
    if constexpr (Advance) {
      ri = ri - alpha * v.q[row];
      v.r_new[row] = ri;
      sums[1] += ri * ri;
    }
    sums[0] += ri * zi;
  }
  detail::grid_sum(sums, s.partials, cg::max_partials, s.done, [&](const double* t) {
    // As the update then the apply: the apply does nothing once the residual test has stopped the solve.
    if constexpr (Advance) cg::finish_residual(s.slots, t[1]);
    if (!cg::stopped(s.slots)) cg::finish_rho(s.slots, t[0]);
  });
}

template <bool Advance>
void launch_second_pass_with_rho(cudaStream_t st, const AipFactorView& f, double* z, const ResidualVectors& v,
                                 const cg::ScalarsView& s) {
  constexpr auto kernel = sell_float_rho_kernel<Advance>;
  kernel<<<detail::scalar_grid<kernel>(f.gt.rows), block_size, 0, st>>>(f.gt, f.work, z, v, s);
  MINIAPP_CUDA_CHECK_LAUNCH("sell_float_rho_kernel (Gt y, r·z)");
}

}  // namespace

void aip_apply(void* stream, const AipFactorView& f, const double* r, double* z, const cg::ScalarsView& s) {
  if (f.g.rows == 0) return;
  const cudaStream_t st = detail::as_stream(stream);
  sell_float_kernel<<<detail::blocks_for(f.g.rows), block_size, 0, st>>>(f.g, r, f.work, s.slots);
  MINIAPP_CUDA_CHECK_LAUNCH("sell_float_kernel (G r)");
  if (s.slots) {
    launch_second_pass_with_rho<false>(st, f, z, ResidualVectors{r, nullptr, nullptr}, s);
  } else {
    sell_float_kernel<<<detail::blocks_for(f.gt.rows), block_size, 0, st>>>(f.gt, f.work, z, nullptr);
    MINIAPP_CUDA_CHECK_LAUNCH("sell_float_kernel (Gt y)");
  }
}

void aip_apply_advancing(void* stream, const AipFactorView& f, const double* p, const double* q, double* x, double* r,
                         double* z, const cg::ScalarsView& s) {
  if (f.g.rows == 0) return;
  const cudaStream_t st = detail::as_stream(stream);
  sell_float_advance_kernel<<<detail::blocks_for(f.g.rows), block_size, 0, st>>>(f.g, AdvanceVectors{p, q, r, x},
                                                                                   f.work, s.slots);
  MINIAPP_CUDA_CHECK_LAUNCH("sell_float_advance_kernel (x += a p, G (r - a q))");
  launch_second_pass_with_rho<true>(st, f, z, ResidualVectors{r, q, r}, s);
}

}  // namespace miniapp::cuda
