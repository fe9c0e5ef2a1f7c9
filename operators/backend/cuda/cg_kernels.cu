// Fused CG kernels of the CUDA backend: one launch each, no host synchronisation. A reduction ends in
// the kernel that feeds it: every block writes its partial sums, and the last block to finish (an
// atomic counter, after a fence) adds the partials in block order and runs the scalar step of
// operators/backend/cg_scalars.hpp on one thread. The grid has min(ceil(n / 256), max_partials)
// blocks (at least 1) with grid-stride loops, so the summation order depends on n only: deterministic.
// Every block first reads the status slot and returns when the solve has stopped; only the last
// block of a reduction writes the slots, after all blocks have read them, so they agree.
#include <algorithm>

#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/block_sum.cuh"
#include "operators/backend/cuda/kernels.hpp"

namespace miniapp::cuda {
namespace {

using detail::block_size;

using detail::block_sum;

// Reduces each thread's v[k] over the grid; the last block calls finish(sums) on thread 0 and resets
// the counter for the next reduction on the stream.
template <int K, class Finish>
__device__ void grid_sum(const double (&v)[K], const cg::ScalarsView& s, Finish finish) {
  __shared__ bool last;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const double total = block_sum(v[k]);
    if (threadIdx.x == 0) s.partials[k * cg::max_partials + blockIdx.x] = total;
  }
  if (threadIdx.x == 0) {
    __threadfence();  // the partials are visible before the count says so
    last = atomicAdd(s.done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double sums[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    double t = 0.0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) t += __ldcg(s.partials + k * cg::max_partials + b);
    sums[k] = block_sum(t);
  }
  if (threadIdx.x == 0) {
    finish(sums);
    *s.done = 0;
  }
}

__device__ inline std::int64_t grid_stride() { return static_cast<std::int64_t>(gridDim.x) * blockDim.x; }

// q = A p (one thread per row, as spmv_sell_kernel: entries in stored order) and σ = p·q.
__global__ void __launch_bounds__(block_size)
    spmv_dot_kernel(SellView a, const double* __restrict__ p, double* __restrict__ q, cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  double sigma[1] = {0.0};
  for (std::int64_t row = detail::global_thread(); row < a.rows; row += grid_stride()) {
    const index_t slice = static_cast<index_t>(row) / a.slice_height;
    const index_t end = __ldg(a.slice_ptr + slice + 1);
    double sum = 0.0;
    for (index_t e = __ldg(a.slice_ptr + slice) + static_cast<index_t>(row) % a.slice_height; e < end; e += a.slice_height)
      sum += __ldg(a.val + e) * __ldg(p + __ldg(a.col + e));
    q[row] = sum;
    sigma[0] += __ldg(p + row) * sum;
  }
  grid_sum(sigma, s, [&](const double* t) { cg::finish_curvature(s.slots, t[0]); });
}

// x += α p, r −= α q, γ = r·r; with Jacobi also z = d ∘ r and ρ_new = r·z.
template <bool Jacobi>
__global__ void __launch_bounds__(block_size)
    update_kernel(index_t n, const double* __restrict__ d, const double* __restrict__ p, const double* __restrict__ q,
                  double* __restrict__ x, double* __restrict__ r, double* __restrict__ z, cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  const double alpha = s.slots[cg::alpha];
  double sums[Jacobi ? 2 : 1] = {};
  for (std::int64_t i = detail::global_thread(); i < n; i += grid_stride()) {
    x[i] += alpha * __ldg(p + i);
    const double ri = r[i] - alpha * __ldg(q + i);
    r[i] = ri;
    sums[0] += ri * ri;
    if constexpr (Jacobi) {
      const double zi = __ldg(d + i) * ri;
      z[i] = zi;
      sums[1] += ri * zi;
    }
  }
  grid_sum(sums, s, [&](const double* t) {
    cg::finish_residual(s.slots, t[0]);
    if constexpr (Jacobi) cg::finish_rho(s.slots, t[1]);
  });
}

__global__ void __launch_bounds__(block_size)
    rho_kernel(index_t n, const double* __restrict__ r, const double* __restrict__ z, cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  double rho[1] = {0.0};
  for (std::int64_t i = detail::global_thread(); i < n; i += grid_stride()) rho[0] += __ldg(r + i) * __ldg(z + i);
  grid_sum(rho, s, [&](const double* t) { cg::finish_rho(s.slots, t[0]); });
}

__global__ void __launch_bounds__(block_size)
    direction_kernel(index_t n, const double* __restrict__ z, double* __restrict__ p, cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  const double beta = s.slots[cg::beta];
  for (std::int64_t i = detail::global_thread(); i < n; i += grid_stride()) p[i] = __ldg(z + i) + beta * p[i];
}

// At least one block even for n = 0, so that the scalar step runs as on the CPU (an empty sum is 0).
unsigned grid_for(index_t n) {
  return std::clamp(detail::blocks_for(n), 1u, static_cast<unsigned>(cg::max_partials));
}

}  // namespace

// q = A p, σ = p·q, α = ρ / σ (A square, sELL); p and q distinct.
void cg_spmv_dot(void* stream, const SellView& a, const double* p, double* q, const cg::ScalarsView& s) {
  spmv_dot_kernel<<<grid_for(a.rows), block_size, 0, detail::as_stream(stream)>>>(a, p, q, s);
  MINIAPP_CUDA_CHECK_LAUNCH("spmv_dot_kernel");
}

void cg_update(void* stream, index_t n, const double* p, const double* q, double* x, double* r,
               const cg::ScalarsView& s) {
  update_kernel<false><<<grid_for(n), block_size, 0, detail::as_stream(stream)>>>(n, nullptr, p, q, x, r, nullptr, s);
  MINIAPP_CUDA_CHECK_LAUNCH("update_kernel<false>");
}

void cg_update_jacobi(void* stream, index_t n, const double* d, const double* p, const double* q, double* x,
                      double* r, double* z, const cg::ScalarsView& s) {
  update_kernel<true><<<grid_for(n), block_size, 0, detail::as_stream(stream)>>>(n, d, p, q, x, r, z, s);
  MINIAPP_CUDA_CHECK_LAUNCH("update_kernel<true>");
}

void cg_rho(void* stream, index_t n, const double* r, const double* z, const cg::ScalarsView& s) {
  rho_kernel<<<grid_for(n), block_size, 0, detail::as_stream(stream)>>>(n, r, z, s);
  MINIAPP_CUDA_CHECK_LAUNCH("rho_kernel");
}

void cg_direction(void* stream, index_t n, const double* z, double* p, const cg::ScalarsView& s) {
  direction_kernel<<<grid_for(n), block_size, 0, detail::as_stream(stream)>>>(n, z, p, s);
  MINIAPP_CUDA_CHECK_LAUNCH("direction_kernel");
}

}  // namespace miniapp::cuda
