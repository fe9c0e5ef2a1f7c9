// CUDA batched frequency kernels (thesis Algorithm 3 on the GPU: "each thread responsible for the
// periodic computations"). One thread per (row, system) pair, the system fastest: the lanes of a warp
// hold consecutive systems of one row (and of the next rows when fewer than 32 systems are active),
// so vector accesses are contiguous runs, and the lanes of one row read the same coefficient of A:
// one broadcast load, so A is fetched from memory once for all systems of the range. The thread sums
// its row in the CPU reference's order (shift term first, then A's entries in stored order).
#include <algorithm>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/launch.cuh"
#include "solvers/fft/batched_cg_scalars.hpp"
#include "solvers/fft/cuda/batched_kernels.hpp"

namespace miniapp::fft::cuda {

namespace {

using miniapp::cuda::detail::as_stream;
using miniapp::cuda::detail::block_size;
using miniapp::cuda::detail::global_thread;

// Thread t covers row t / width, system begin + t % width, entry [row · S + system].
struct Item {
  index_t row;
  std::int64_t index;
  index_t offset;  // system − begin
};

__device__ inline bool item_of(const BatchedShape& s, Item& item) {
  const std::int64_t t = global_thread();
  const index_t w = s.end - s.begin;
  if (t >= static_cast<std::int64_t>(s.rows) * w) return false;
  item.row = static_cast<index_t>(t / w);
  item.offset = static_cast<index_t>(t % w);
  item.index = static_cast<std::int64_t>(item.row) * s.systems + s.begin + item.offset;
  return true;
}

unsigned item_blocks(const BatchedShape& s) {
  const std::int64_t items = static_cast<std::int64_t>(s.rows) * s.width();
  return static_cast<unsigned>((items + block_size - 1) / block_size);
}

bool empty(const BatchedShape& s) { return s.rows == 0 || s.width() == 0; }

__global__ void batched_spmv_kernel(ShiftedPointers m, BatchedShape s, const double* __restrict__ x,
                                    double* __restrict__ y) {
  Item it;
  if (!item_of(s, it)) return;
  const index_t sys = s.begin + it.offset;
  double sum = m.shifts ? __ldg(m.shifts + sys) * __ldg(m.w + it.row) * x[it.index] : 0.0;
  const index_t end = __ldg(m.a.row_ptr + it.row + 1);
  for (index_t p = __ldg(m.a.row_ptr + it.row); p < end; ++p)
    sum += __ldg(m.a.val + p) * x[static_cast<std::int64_t>(__ldg(m.a.col + p)) * s.systems + sys];
  y[it.index] = sum;
}

__global__ void batched_jacobi_kernel(ShiftedPointers m, BatchedShape s, const double* __restrict__ r,
                                      double* __restrict__ z) {
  Item it;
  if (!item_of(s, it)) return;
  z[it.index] = r[it.index] / (__ldg(m.diagonal + it.row) + __ldg(m.shifts + s.begin + it.offset) * __ldg(m.w + it.row));
}

__global__ void batched_cg_update_kernel(BatchedShape s, const double* __restrict__ alpha, const double* __restrict__ p,
                                         const double* __restrict__ q, double* __restrict__ x, double* __restrict__ r) {
  Item it;
  if (!item_of(s, it)) return;
  const double a = __ldg(alpha + s.begin + it.offset);
  x[it.index] += a * p[it.index];
  r[it.index] -= a * q[it.index];
}

__global__ void batched_direction_kernel(BatchedShape s, const double* __restrict__ beta, const double* __restrict__ z,
                                         double* __restrict__ p) {
  Item it;
  if (!item_of(s, it)) return;
  p[it.index] = z[it.index] + __ldg(beta + s.begin + it.offset) * p[it.index];
}

__global__ void batched_add_kernel(BatchedShape s, const double* __restrict__ value, double* __restrict__ v) {
  Item it;
  if (!item_of(s, it)) return;
  v[it.index] += __ldg(value + s.begin + it.offset);
}

// One thread per system of the range.
__global__ void batched_finish_curvature_kernel(BatchedShape s, double* state, const double* __restrict__ sigma) {
  const std::int64_t t = global_thread();
  if (t >= s.end - s.begin) return;
  const std::int64_t sys = s.begin + t;
  batched_cg::finish_curvature(state, s.systems, sys, sigma[sys]);
}

__global__ void batched_finish_residual_kernel(BatchedShape s, double* state, const double* __restrict__ rho_new,
                                               const double* __restrict__ gamma) {
  const std::int64_t t = global_thread();
  if (t >= s.end - s.begin) return;
  const std::int64_t sys = s.begin + t;
  batched_cg::finish_residual(state, s.systems, sys, rho_new[sys], gamma[sys]);
}

// Column sums in two passes. Pass 1: blocks of 32 systems × 8 row lanes; block (bx, by) sums the rows
// by·8 + ty, stepping 8 · gridDim.y, for systems begin + 32 bx + tx, then its 8 lanes in order, and
// writes partial[by · S + s]. Pass 2 adds the gridDim.y partials of each system in order.
constexpr int dot_systems = 32, dot_rows = 8, max_dot_row_blocks = 128;

__global__ void batched_dot_partial_kernel(BatchedShape s, const double* __restrict__ u, const double* __restrict__ v,
                                           double* __restrict__ partial) {
  __shared__ double lanes[dot_rows][dot_systems + 1];
  const index_t sys = s.begin + static_cast<index_t>(blockIdx.x) * dot_systems + threadIdx.x;
  double acc = 0.0;
  if (sys < s.end)
    for (std::int64_t c = static_cast<std::int64_t>(blockIdx.y) * dot_rows + threadIdx.y; c < s.rows;
         c += static_cast<std::int64_t>(dot_rows) * gridDim.y) {
      const std::int64_t i = c * s.systems + sys;
      acc += u[i] * (v ? v[i] : 1.0);
    }
  lanes[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.y != 0 || sys >= s.end) return;
  double sum = 0.0;
  for (int k = 0; k < dot_rows; ++k) sum += lanes[k][threadIdx.x];
  partial[static_cast<std::int64_t>(blockIdx.y) * s.systems + sys] = sum;
}

__global__ void batched_dot_final_kernel(BatchedShape s, unsigned row_blocks, const double* __restrict__ partial,
                                         double* __restrict__ out) {
  const std::int64_t t = global_thread();
  if (t >= s.end - s.begin) return;
  const index_t sys = s.begin + static_cast<index_t>(t);
  double sum = 0.0;
  for (unsigned b = 0; b < row_blocks; ++b) sum += partial[static_cast<std::int64_t>(b) * s.systems + sys];
  out[sys] = sum;
}

}  // namespace

void batched_spmv(void* stream, const ShiftedPointers& m, BatchedShape shape, const double* x, double* y) {
  if (empty(shape)) return;
  batched_spmv_kernel<<<item_blocks(shape), block_size, 0, as_stream(stream)>>>(m, shape, x, y);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_spmv_kernel");
}

void batched_jacobi(void* stream, const ShiftedPointers& m, BatchedShape shape, const double* r, double* z) {
  if (empty(shape)) return;
  batched_jacobi_kernel<<<item_blocks(shape), block_size, 0, as_stream(stream)>>>(m, shape, r, z);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_jacobi_kernel");
}

index_t batched_dot_scratch(index_t systems) { return max_dot_row_blocks * systems; }

// Enough blocks in pass 1 for about 4 per SM, at most max_dot_row_blocks row blocks and never more
// row blocks than groups of 8 rows.
void batched_dot(void* stream, BatchedShape shape, const double* u, const double* v, double* scratch, double* out) {
  if (shape.width() == 0) return;
  const unsigned system_blocks = static_cast<unsigned>((shape.width() + dot_systems - 1) / dot_systems);
  const std::int64_t wanted = (4 * static_cast<std::int64_t>(miniapp::cuda::detail::sm_count()) + system_blocks - 1) / system_blocks;
  const std::int64_t row_groups = (static_cast<std::int64_t>(shape.rows) + dot_rows - 1) / dot_rows;
  const unsigned row_blocks = static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>({wanted, row_groups, max_dot_row_blocks})));
  const cudaStream_t s = as_stream(stream);
  batched_dot_partial_kernel<<<dim3(system_blocks, row_blocks), dim3(dot_systems, dot_rows), 0, s>>>(shape, u, v, scratch);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_dot_partial_kernel");
  batched_dot_final_kernel<<<miniapp::cuda::detail::blocks_for(shape.width()), block_size, 0, s>>>(shape, row_blocks, scratch, out);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_dot_final_kernel");
}

void batched_cg_update(void* stream, BatchedShape shape, const double* alpha, const double* p, const double* q,
                       double* x, double* r) {
  if (empty(shape)) return;
  batched_cg_update_kernel<<<item_blocks(shape), block_size, 0, as_stream(stream)>>>(shape, alpha, p, q, x, r);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_cg_update_kernel");
}

void batched_direction(void* stream, BatchedShape shape, const double* beta, const double* z, double* p) {
  if (empty(shape)) return;
  batched_direction_kernel<<<item_blocks(shape), block_size, 0, as_stream(stream)>>>(shape, beta, z, p);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_direction_kernel");
}

void batched_add(void* stream, BatchedShape shape, const double* value, double* v) {
  if (empty(shape)) return;
  batched_add_kernel<<<item_blocks(shape), block_size, 0, as_stream(stream)>>>(shape, value, v);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_add_kernel");
}

void batched_finish_curvature(void* stream, BatchedShape shape, double* state, const double* sigma) {
  if (shape.width() == 0) return;
  batched_finish_curvature_kernel<<<miniapp::cuda::detail::blocks_for(shape.width()), block_size, 0, as_stream(stream)>>>(
      shape, state, sigma);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_finish_curvature_kernel");
}

void batched_finish_residual(void* stream, BatchedShape shape, double* state, const double* rho_new,
                             const double* gamma) {
  if (shape.width() == 0) return;
  batched_finish_residual_kernel<<<miniapp::cuda::detail::blocks_for(shape.width()), block_size, 0, as_stream(stream)>>>(
      shape, state, rho_new, gamma);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_finish_residual_kernel");
}

}  // namespace miniapp::fft::cuda
