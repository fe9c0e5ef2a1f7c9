// The AIP apply of the CUDA backend: y = G r and z = Gᵀ y as two sELL passes over float values (double
// sums), or z = (Gᵀ G) r as one; within a CG solve the last pass also forms ρ = r·z and runs
// cg::finish_rho (the dot reads r, z is in registers). The CG update can join the passes too
// (aip_apply_advancing): with two, x += α p and the gathers of r − α q in the first, r_new = r − α q
// with the residual test in the second, which reads r already: an AIP iteration is then three
// kernels; with the product all of it in one pass, which gathers r − α q: two kernels.
// With a scalar block every kernel first reads its status and returns once the solve has stopped, as
// the fused CG kernels do.
#include "operators/backend/cuda/aip_kernels.hpp"
#include "operators/backend/cuda/block_sum.cuh"
#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/scalar_grid.cuh"
#include "operators/backend/cuda/sell_row.cuh"

namespace miniapp::cuda {
namespace {

using detail::block_size;

// Σ_k val · x(col) over the stored entries of `row` (padding has value 0), in stored order, a chunk of
// entries loaded at a time as the operators' SpMV loads them (detail::sell_row_sum: its loads in
// flight together, which the product's long rows need on small meshes, where each row's chain of
// dependent loads sets the time); x(c) gives the gathered value of column c. With Stream the matrix is
// loaded with the streaming hint: the product's pass takes it (it made the step faster), two passes do
// not (it made them slower on hexahedra, where two passes are the form chosen).
template <bool Stream, class Gather>
__device__ inline double sell_float_row(const SellFloatView& a, index_t row, Gather x) {
  return detail::sell_row_sum<Stream>(a.slice_ptr, a.col, a.val, a.slice_height, row, x);
}

// y = A x, one thread per row.
template <bool Stream>
__global__ void __launch_bounds__(block_size)
    sell_float_kernel(SellFloatView a, const double* __restrict__ x, double* __restrict__ y, const double* slots) {
  if (slots && cg::stopped(slots)) return;
  const std::int64_t row = detail::global_thread();
  if (row >= a.rows) return;
  y[row] = sell_float_row<Stream>(a, static_cast<index_t>(row), [&](index_t c) { return __ldg(x + c); });
}

// The vectors of the CG update joined with the apply (aip_apply_advancing): the first of two passes
// gathers r − α q and advances x; the second (or the product's pass) writes r_new = r − α q.
struct UpdateVectors {
  const double *p, *q, *r;
  double *x, *r_new;
};

// r − α q at column c, gathered: neither vector is written by a kernel that gathers them.
__device__ inline double gathered_residual(const UpdateVectors& v, double alpha, index_t c) {
  return __ldg(v.r + c) - alpha * __ldg(v.q + c);
}

// The first of two passes with the update joined: y = G (r − α q), gathering r and q (neither is
// written in this kernel), and x += α p at the thread's own row.
__global__ void __launch_bounds__(block_size)
    sell_float_advance_kernel(SellFloatView g, UpdateVectors v, double* __restrict__ y, const double* slots) {
  if (cg::stopped(slots)) return;
  const std::int64_t row = detail::global_thread();
  if (row >= g.rows) return;
  const double alpha = slots[cg::alpha];
  y[row] = sell_float_row<false>(g, static_cast<index_t>(row), [&](index_t c) { return gathered_residual(v, alpha, c); });
  v.x[row] += alpha * v.p[row];
}

// What the pass that sums r·z reads and does besides z = A x (x: y or r).
enum class RhoPass {
  apply,         // r is x's own row
  second,        // the second of two passes with the update joined: writes r_new = r − α q at its row
  product,       // the product's pass with the update joined: gathers r − α q, advances x, writes r_new
};

// z = A x (the rows of sell_float_kernel, bitwise, for apply and second) and ρ = r·z, then β and ρ
// (cg::finish_rho). With the update joined, r_new = r − α q at each row (the value the first pass or
// the gather used), γ = r_new·r_new too and, before β, the iteration's residual test
// (cg::finish_residual). Grid-stride rows, at most cg::max_partials blocks (detail::scalar_grid).
template <RhoPass Pass, bool Stream>
__global__ void __launch_bounds__(block_size)
    sell_float_rho_kernel(SellFloatView a, const double* __restrict__ x, double* __restrict__ z, UpdateVectors v,
                          cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  constexpr bool advancing = Pass != RhoPass::apply;
  constexpr int K = advancing ? 2 : 1;
  const double alpha = advancing ? s.slots[cg::alpha] : 0.0;
  double sums[K] = {};  // r·z, r·r
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t row = detail::global_thread(); row < a.rows; row += stride) {
    double zi;
    if constexpr (Pass == RhoPass::product) {
      zi = sell_float_row<Stream>(a, static_cast<index_t>(row), [&](index_t c) { return gathered_residual(v, alpha, c); });
      v.x[row] += alpha * v.p[row];
    } else {
      zi = sell_float_row<Stream>(a, static_cast<index_t>(row), [&](index_t c) { return __ldg(x + c); });
    }
    z[row] = zi;
    double ri = v.r[row];
    if constexpr (advancing) {
      ri = ri - alpha * v.q[row];
      v.r_new[row] = ri;
      sums[1] += ri * ri;
    }
    sums[0] += ri * zi;
  }
  detail::grid_sum(sums, s.partials, cg::max_partials, s.done, [&](const double* t) {
    // As the update then the apply: the apply does nothing once the residual test has stopped the solve.
    if constexpr (advancing) cg::finish_residual(s.slots, t[1]);
    if (!cg::stopped(s.slots)) cg::finish_rho(s.slots, t[0]);
  });
}

// Stream: the product's pass (see sell_float_row).
template <RhoPass Pass, bool Stream>
void launch_pass_with_rho(cudaStream_t st, const SellFloatView& a, const double* x, double* z, const UpdateVectors& v,
                          const cg::ScalarsView& s, const char* what) {
  constexpr auto kernel = sell_float_rho_kernel<Pass, Stream>;
  kernel<<<detail::scalar_grid<kernel>(a.rows), block_size, 0, st>>>(a, x, z, v, s);
  MINIAPP_CUDA_CHECK_LAUNCH(what);
}

}  // namespace

void aip_apply(void* stream, const AipFactorView& f, const double* r, double* z, const cg::ScalarsView& s) {
  if (f.first.rows == 0) return;
  const cudaStream_t st = detail::as_stream(stream);
  const UpdateVectors v{nullptr, nullptr, r, nullptr, nullptr};
  if (f.passes == 1) {
    if (s.slots) {
      launch_pass_with_rho<RhoPass::apply, true>(st, f.first, r, z, v, s, "sell_float_rho_kernel (M r, r·z)");
    } else {
      sell_float_kernel<true><<<detail::blocks_for(f.first.rows), block_size, 0, st>>>(f.first, r, z, nullptr);
      MINIAPP_CUDA_CHECK_LAUNCH("sell_float_kernel (M r)");
    }
    return;
  }
  sell_float_kernel<false><<<detail::blocks_for(f.first.rows), block_size, 0, st>>>(f.first, r, f.work, s.slots);
  MINIAPP_CUDA_CHECK_LAUNCH("sell_float_kernel (G r)");
  if (s.slots) {
    launch_pass_with_rho<RhoPass::apply, false>(st, f.second, f.work, z, v, s, "sell_float_rho_kernel (Gt y, r·z)");
  } else {
    sell_float_kernel<false><<<detail::blocks_for(f.second.rows), block_size, 0, st>>>(f.second, f.work, z, nullptr);
    MINIAPP_CUDA_CHECK_LAUNCH("sell_float_kernel (Gt y)");
  }
}

void aip_apply_advancing(void* stream, const AipFactorView& f, const double* p, const double* q, double* x,
                         const double* r, double* r_new, double* z, const cg::ScalarsView& s) {
  if (f.first.rows == 0) return;
  const cudaStream_t st = detail::as_stream(stream);
  const UpdateVectors v{p, q, r, x, r_new};
  if (f.passes == 1) {
    launch_pass_with_rho<RhoPass::product, true>(st, f.first, nullptr, z, v, s,
                                           "sell_float_rho_kernel (x += a p, M (r - a q), r·z, r·r)");
    return;
  }
  sell_float_advance_kernel<<<detail::blocks_for(f.first.rows), block_size, 0, st>>>(f.first, v, f.work, s.slots);
  MINIAPP_CUDA_CHECK_LAUNCH("sell_float_advance_kernel (x += a p, G (r - a q))");
  launch_pass_with_rho<RhoPass::second, false>(st, f.second, f.work, z, v, s,
                                              "sell_float_rho_kernel (Gt y, r·z, r·r)");
}

__global__ void __launch_bounds__(block_size) narrow_to_float_kernel(index_t n, const double* __restrict__ x,
                                                                     float* __restrict__ y) {
  const std::int64_t i = detail::global_thread();
  if (i < n) y[i] = __double2float_rn(x[i]);
}

__global__ void __launch_bounds__(block_size) round_to_float_kernel(index_t n, double* __restrict__ x) {
  const std::int64_t i = detail::global_thread();
  if (i < n) x[i] = static_cast<double>(__double2float_rn(x[i]));
}

void round_to_float(void* stream, index_t n, double* x) {
  if (n == 0) return;
  round_to_float_kernel<<<detail::blocks_for(n), block_size, 0, detail::as_stream(stream)>>>(n, x);
  MINIAPP_CUDA_CHECK_LAUNCH("round_to_float_kernel");
}

void narrow_to_float(void* stream, index_t n, const double* x, float* y) {
  if (n == 0) return;
  narrow_to_float_kernel<<<detail::blocks_for(n), block_size, 0, detail::as_stream(stream)>>>(n, x, y);
  MINIAPP_CUDA_CHECK_LAUNCH("narrow_to_float_kernel");
}

}  // namespace miniapp::cuda
