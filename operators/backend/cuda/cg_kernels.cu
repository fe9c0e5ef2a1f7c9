// Fused CG kernels of the CUDA backend: one launch each, no host synchronisation. A reduction ends in
// the kernel that feeds it (detail::grid_sum): every block writes its partial sums, and the last block
// to finish adds the partials in block order and runs the scalar step of
// operators/backend/cg_scalars.hpp on one thread. Every block first reads the status slot and returns
// when the solve has stopped; only the last block of a reduction writes the slots, after all blocks
// have read them, so they agree.
//
// Geometry, as the DOT (dot.cu): grid-stride loops over element pairs with 16-byte accesses, two pairs
// per iteration with separate accumulators, and exactly as many blocks as are resident at once
// (occupancy of each kernel × SMs, at most cg::max_partials, fewer for short vectors): one wave, no
// tail of half-filled SMs, enough loads in flight to stream at the memory bandwidth. The summation
// order depends on n and the GPU only: deterministic. The SpMV of cg_spmv_dot is the row product of
// spmv (sell_row.cuh), so q is bitwise the q of spmv.
#include <algorithm>
#include <initializer_list>

#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/cuda/block_sum.cuh"
#include "operators/backend/cuda/scalar_grid.cuh"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/launch.cuh"
#include "operators/backend/cuda/sell_row.cuh"

namespace miniapp::cuda {
namespace {

using detail::block_size;

// Sums each thread's v over the grid into the scalar block's partials; the last block runs finish.
template <int K, class Finish>
__device__ void scalar_sum(const double (&v)[K], const cg::ScalarsView& s, Finish finish) {
  detail::grid_sum(v, s.partials, cg::max_partials, s.done, finish);
}

__device__ inline std::int64_t grid_stride() { return static_cast<std::int64_t>(gridDim.x) * blockDim.x; }

// q = A p (one thread per row, the row product of spmv) and σ = p·q.
__global__ void __launch_bounds__(block_size)
    spmv_dot_kernel(SellView a, const double* __restrict__ p, double* __restrict__ q, cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  double sigma[1] = {0.0};
  for (std::int64_t row = detail::global_thread(); row < a.rows; row += grid_stride()) {
    const double sum = detail::sell_row_product(a, static_cast<index_t>(row), p);
    q[row] = sum;
    sigma[0] += __ldg(p + row) * sum;
  }
  scalar_sum(sigma, s, [&](const double* t) { cg::finish_curvature(s.slots, t[0]); });
}

// p = z + β p, q = A z + β q (= A p: A p_old is the q of the previous step) and σ = p·q. Only z is
// gathered; p and q are read and written at the thread's own rows.
__global__ void __launch_bounds__(block_size) direction_spmv_dot_kernel(SellView a, const double* __restrict__ z,
                                                                        double* __restrict__ p, double* __restrict__ q,
                                                                        cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  const double beta = s.slots[cg::beta];
  double sigma[1] = {0.0};
  for (std::int64_t row = detail::global_thread(); row < a.rows; row += grid_stride()) {
    const double az = detail::sell_row_product(a, static_cast<index_t>(row), z);
    const double pi = __ldg(z + row) + beta * p[row];
    const double qi = az + beta * q[row];
    p[row] = pi;
    q[row] = qi;
    sigma[0] += pi * qi;
  }
  scalar_sum(sigma, s, [&](const double* t) { cg::finish_curvature(s.slots, t[0]); });
}

// The vectors of the update kernel; d and z are used only with a fused Jacobi preconditioner.
struct UpdateVectors {
  const double *d, *p, *q;
  double *x, *r, *z;
};

// Element i of the update: x += α p, r −= α q, acc[0] += r², and with Jacobi z = d r, acc[1] += r z.
template <bool Jacobi, int K>
__device__ inline void update_element(double alpha, double di, double pi, double qi, double& xi, double& ri,
                                      double& zi, double (&acc)[K]) {
  xi += alpha * pi;
  ri -= alpha * qi;
  acc[0] += ri * ri;
  if constexpr (Jacobi) {
    zi = di * ri;
    acc[1] += ri * zi;
  }
}

// x += α p, r −= α q, γ = r·r; with Jacobi also z = d ∘ r and ρ_new = r·z.
template <bool Jacobi, bool Vec>
__global__ void __launch_bounds__(block_size) update_kernel(index_t n, UpdateVectors v, cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  constexpr int K = Jacobi ? 2 : 1;
  const double alpha = s.slots[cg::alpha];
  double sums[K] = {};
  detail::pair_sums(n, [&](std::int64_t j, double (&acc)[K]) {
    const double2 p = detail::load_pair<Vec>(v.p, j), q = detail::load_pair<Vec>(v.q, j);
    double2 x = detail::load_pair<Vec>(v.x, j), r = detail::load_pair<Vec>(v.r, j), z{0.0, 0.0}, d{0.0, 0.0};
    if constexpr (Jacobi) d = detail::load_pair<Vec>(v.d, j);
    update_element<Jacobi>(alpha, d.x, p.x, q.x, x.x, r.x, z.x, acc);
    update_element<Jacobi>(alpha, d.y, p.y, q.y, x.y, r.y, z.y, acc);
    detail::store_pair<Vec>(v.x, j, x);
    detail::store_pair<Vec>(v.r, j, r);
    if constexpr (Jacobi) detail::store_pair<Vec>(v.z, j, z);
  }, sums);
  if (detail::global_thread() == 0 && n % 2 != 0) {
    double zi = 0.0;
    update_element<Jacobi>(alpha, Jacobi ? v.d[n - 1] : 0.0, v.p[n - 1], v.q[n - 1], v.x[n - 1], v.r[n - 1], zi, sums);
    if constexpr (Jacobi) v.z[n - 1] = zi;
  }
  scalar_sum(sums, s, [&](const double* t) {
    cg::finish_residual(s.slots, t[0]);
    if constexpr (Jacobi) cg::finish_rho(s.slots, t[1]);
  });
}

template <bool Vec>
__global__ void __launch_bounds__(block_size)
    rho_kernel(index_t n, const double* __restrict__ r, const double* __restrict__ z, cg::ScalarsView s) {
  if (cg::stopped(s.slots)) return;
  double rho[1] = {0.0};
  detail::pair_sums(n, [&](std::int64_t j, double (&acc)[1]) {
    const double2 a = detail::load_pair<Vec>(r, j), b = detail::load_pair<Vec>(z, j);
    acc[0] += a.x * b.x;
    acc[0] += a.y * b.y;
  }, rho);
  if (detail::global_thread() == 0 && n % 2 != 0) rho[0] += r[n - 1] * z[n - 1];
  scalar_sum(rho, s, [&](const double* t) { cg::finish_rho(s.slots, t[0]); });
}

// Σ v into the mean slot (divided by n).
template <bool Vec>
__global__ void __launch_bounds__(block_size) mean_kernel(index_t n, const double* __restrict__ v, cg::ScalarsView s) {
  double sum[1] = {0.0};
  detail::pair_sums(n, [&](std::int64_t j, double (&acc)[1]) {
    const double2 a = detail::load_pair<Vec>(v, j);
    acc[0] += a.x;
    acc[0] += a.y;
  }, sum);
  if (detail::global_thread() == 0 && n % 2 != 0) sum[0] += v[n - 1];
  scalar_sum(sum, s, [&](const double* t) { s.slots[cg::mean] = t[0] / static_cast<double>(n); });
}

template <bool Vec>
__global__ void __launch_bounds__(block_size) subtract_mean_kernel(index_t n, double* __restrict__ v, cg::ScalarsView s) {
  const double mean = s.slots[cg::mean];
  for (std::int64_t j = detail::global_thread(); j < n / 2; j += grid_stride()) {
    const double2 vj = detail::load_pair<Vec>(v, j);
    detail::store_pair<Vec>(v, j, make_double2(vj.x - mean, vj.y - mean));
  }
  if (detail::global_thread() == 0 && n % 2 != 0) v[n - 1] -= mean;
}

// b·b and r·r, then cg::finish_start.
template <bool Vec>
__global__ void __launch_bounds__(block_size) start_kernel(index_t n, const double* __restrict__ b,
                                                           const double* __restrict__ r, cg::ScalarsView s,
                                                           double tolerance, double cap) {
  double sums[2] = {0.0, 0.0};
  detail::pair_sums(n, [&](std::int64_t j, double (&acc)[2]) {
    const double2 bj = detail::load_pair<Vec>(b, j), rj = detail::load_pair<Vec>(r, j);
    acc[0] += bj.x * bj.x;
    acc[0] += bj.y * bj.y;
    acc[1] += rj.x * rj.x;
    acc[1] += rj.y * rj.y;
  }, sums);
  if (detail::global_thread() == 0 && n % 2 != 0) {
    sums[0] += b[n - 1] * b[n - 1];
    sums[1] += r[n - 1] * r[n - 1];
  }
  scalar_sum(sums, s, [&](const double* t) { cg::finish_start(s.slots, t[0], t[1], tolerance, cap); });
}

// One thread: counts the loop's run and sets its condition (inside a recorded loop only).
__global__ void loop_test_kernel(cg::ScalarsView s, int body, std::uint64_t loop) {
  const bool again = cg::loop_continues(s.slots, body);
#if CUDART_VERSION >= 12040
  if (loop != 0) cudaGraphSetConditional(static_cast<cudaGraphConditionalHandle>(loop), again ? 1u : 0u);
#else
  (void)again;
  (void)loop;
#endif
}

bool aligned(std::initializer_list<const double*> vectors) {
  return std::all_of(vectors.begin(), vectors.end(), [](const double* v) { return !v || detail::aligned_16(v); });
}

// Launches the 16-byte (Aligned) or 8-byte (Unaligned) instance of a pair kernel over n entries.
template <auto Aligned, auto Unaligned, class... Args>
void launch_pairs(void* stream, const char* name, bool vec, index_t n, Args... args) {
  const cudaStream_t st = detail::as_stream(stream);
  if (vec) Aligned<<<detail::scalar_grid<Aligned>(n / 2), block_size, 0, st>>>(n, args...);
  else Unaligned<<<detail::scalar_grid<Unaligned>(n / 2), block_size, 0, st>>>(n, args...);
  MINIAPP_CUDA_CHECK_LAUNCH(name);
}

}  // namespace

// q = A p, σ = p·q, α = ρ / σ (A square, sELL); p and q distinct.
void cg_spmv_dot(void* stream, const SellView& a, const double* p, double* q, const cg::ScalarsView& s) {
  spmv_dot_kernel<<<detail::scalar_grid<spmv_dot_kernel>(a.rows), block_size, 0, detail::as_stream(stream)>>>(a, p, q, s);
  MINIAPP_CUDA_CHECK_LAUNCH("spmv_dot_kernel");
}

void cg_direction_spmv_dot(void* stream, const SellView& a, const double* z, double* p, double* q,
                           const cg::ScalarsView& s) {
  direction_spmv_dot_kernel<<<detail::scalar_grid<direction_spmv_dot_kernel>(a.rows), block_size, 0,
                              detail::as_stream(stream)>>>(a, z, p, q, s);
  MINIAPP_CUDA_CHECK_LAUNCH("direction_spmv_dot_kernel");
}

void cg_update(void* stream, index_t n, const double* p, const double* q, double* x, double* r,
               const cg::ScalarsView& s) {
  const UpdateVectors v{nullptr, p, q, x, r, nullptr};
  launch_pairs<update_kernel<false, true>, update_kernel<false, false>>(stream, "update_kernel<false>",
                                                                        aligned({p, q, x, r}), n, v, s);
}

void cg_update_jacobi(void* stream, index_t n, const double* d, const double* p, const double* q, double* x,
                      double* r, double* z, const cg::ScalarsView& s) {
  const UpdateVectors v{d, p, q, x, r, z};
  launch_pairs<update_kernel<true, true>, update_kernel<true, false>>(stream, "update_kernel<true>",
                                                                      aligned({d, p, q, x, r, z}), n, v, s);
}

void cg_rho(void* stream, index_t n, const double* r, const double* z, const cg::ScalarsView& s) {
  launch_pairs<rho_kernel<true>, rho_kernel<false>>(stream, "rho_kernel", aligned({r, z}), n, r, z, s);
}

void cg_mean(void* stream, index_t n, const double* v, const cg::ScalarsView& s) {
  launch_pairs<mean_kernel<true>, mean_kernel<false>>(stream, "mean_kernel", aligned({v}), n, v, s);
}

void cg_subtract_mean(void* stream, index_t n, double* v, const cg::ScalarsView& s) {
  launch_pairs<subtract_mean_kernel<true>, subtract_mean_kernel<false>>(stream, "subtract_mean_kernel", aligned({v}),
                                                                        n, v, s);
}

void cg_start(void* stream, index_t n, const double* b, const double* r, const cg::ScalarsView& s, double tolerance,
              double max_iterations) {
  launch_pairs<start_kernel<true>, start_kernel<false>>(stream, "start_kernel", aligned({b, r}), n, b, r, s,
                                                        tolerance, max_iterations);
}

void cg_loop_test(void* stream, const cg::ScalarsView& s, int body, std::uint64_t loop) {
  loop_test_kernel<<<1, 1, 0, detail::as_stream(stream)>>>(s, body, loop);
  MINIAPP_CUDA_CHECK_LAUNCH("loop_test_kernel");
}

}  // namespace miniapp::cuda
