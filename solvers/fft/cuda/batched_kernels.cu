// CUDA batched frequency kernels (thesis Algorithm 3 on the GPU: "each thread responsible for the
// periodic computations"). One thread per (row, system) pair, the system fastest: the lanes of a warp
// hold consecutive systems of one row (and of the next rows when fewer than 32 systems are active),
// so vector accesses are contiguous runs, and the lanes of one row read the same coefficient of A:
// one broadcast load, so A is fetched from memory once for all systems of the range. The thread sums
// its row in the CPU reference's order (shift term first, then A's entries in stored order); rows of
// many entries (an AMG block's dense coarse inverse) take a warp each instead (batched_spmv_warp_kernel).
#include <algorithm>
#include <optional>

#include "operators/backend/cuda/block_sum.cuh"
#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/csr_row.cuh"
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

// Row c, system sys of y = (A + σ diag(w)) x: the shift term first, then A's entries in stored order
// (the CPU reference's order).
__device__ inline double shifted_row(const ShiftedPointers& m, const BatchedShape& s, index_t c, index_t sys,
                                     const double* __restrict__ x) {
  const std::int64_t i = static_cast<std::int64_t>(c) * s.systems + sys;
  double sum = m.shifts ? __ldg(m.shifts + sys) * __ldg(m.w + c) * x[i] : 0.0;
  const index_t end = __ldg(m.a.row_ptr + c + 1);
  for (index_t p = __ldg(m.a.row_ptr + c); p < end; ++p)
    sum += __ldg(m.a.val + p) * x[static_cast<std::int64_t>(__ldg(m.a.col + p)) * s.systems + sys];
  return sum;
}

__global__ void batched_spmv_kernel(ShiftedPointers m, BatchedShape s, const double* __restrict__ x,
                                    double* __restrict__ y) {
  Item it;
  if (!item_of(s, it)) return;
  y[it.index] = shifted_row(m, s, it.row, s.begin + it.offset, x);
}

// A warp per row of A (no shift), for rows of many entries (an AMG block's dense coarse inverse): the
// lanes read the row's entries side by side and sum `warp_systems` systems at a time, then add their
// partial sums across the warp. One thread per (row, system) would sum such a row as one chain of loads
// as long as the row, and few rows give few threads to hide it.
constexpr int warp_systems = 4;

__global__ void __launch_bounds__(block_size)
    batched_spmv_warp_kernel(CsrView a, BatchedShape s, const double* __restrict__ x, double* __restrict__ y) {
  using miniapp::cuda::detail::warp_size;
  const miniapp::cuda::detail::WarpRow w = miniapp::cuda::detail::warp_row();
  if (w.row >= s.rows) return;
  const index_t begin = __ldg(a.row_ptr + w.row), end = __ldg(a.row_ptr + w.row + 1);
  for (index_t first = s.begin; first < s.end; first += warp_systems) {
    const index_t count = s.end - first < warp_systems ? s.end - first : warp_systems;
    double sum[warp_systems] = {};
    for (index_t p = begin + w.lane; p < end; p += warp_size) {
      const double v = __ldg(a.val + p);
      const double* xj = x + static_cast<std::int64_t>(__ldg(a.col + p)) * s.systems + first;
#pragma unroll
      for (int k = 0; k < warp_systems; ++k)
        if (k < count) sum[k] += v * xj[k];
    }
#pragma unroll
    for (int k = 0; k < warp_systems; ++k) {
      const double total = miniapp::cuda::detail::warp_sum(sum[k]);
      if (w.lane == 0 && k < count) y[w.row * s.systems + first + k] = total;
    }
  }
}

// Jacobi's z of row c, system sys: one expression wherever it is formed, so that the update's r·z and
// the direction's z are the same numbers as batched_jacobi's. r times the inverse, not r divided: the
// division's chain then needs only the matrix's arrays and runs while r loads. (The CPU divides: the
// inverse's form made its solve slower; the two differ by at most an ulp.)
__device__ inline double jacobi_z(const ShiftedPointers& m, index_t c, index_t sys, double r) {
  return r * (1.0 / (__ldg(m.diagonal + c) + __ldg(m.shifts + sys) * __ldg(m.w + c)));
}

__global__ void batched_jacobi_kernel(ShiftedPointers m, BatchedShape s, const double* __restrict__ r,
                                      double* __restrict__ z) {
  Item it;
  if (!item_of(s, it)) return;
  z[it.index] = jacobi_z(m, it.row, s.begin + it.offset, r[it.index]);
}

// p_s = z_s + β_s p_s below jacobi_begin; from it Jacobi's z_s formed again from r_s (never stored).
// Each thread takes a system in two rows, half the rows apart, and loads both before it divides: with
// one entry a thread the division's chain of dependent operations kept each thread's loads waiting,
// fewer of them in flight, and the kernel below the copy bandwidth.
__global__ void batched_direction_jacobi_kernel(ShiftedPointers m, BatchedShape s, index_t half_rows,
                                                index_t jacobi_begin, DirectionVectors v) {
  Item it;
  if (!item_of({half_rows, s.systems, s.begin, s.end}, it)) return;
  const index_t sys = s.begin + it.offset, second_row = it.row + half_rows;
  const bool second = second_row < s.rows;
  const std::int64_t i[2] = {it.index, it.index + static_cast<std::int64_t>(half_rows) * s.systems};
  const bool jacobi = sys >= jacobi_begin;
  const double* from = jacobi ? v.r : v.z;
  const double u0 = from[i[0]], p0 = v.p[i[0]];
  const double u1 = second ? from[i[1]] : 0.0, p1 = second ? v.p[i[1]] : 0.0;
  const double beta = __ldg(v.beta + sys);
  v.p[i[0]] = (jacobi ? jacobi_z(m, it.row, sys, u0) : u0) + beta * p0;
  if (second) v.p[i[1]] = (jacobi ? jacobi_z(m, second_row, sys, u1) : u1) + beta * p1;
}

__global__ void batched_subtract_mean_kernel(BatchedShape s, const double* __restrict__ sums, double count,
                                             double* __restrict__ v) {
  Item it;
  if (!item_of(s, it)) return;
  v[it.index] -= __ldg(sums + s.begin + it.offset) / count;
}

// Kernels that form column sums (batched_shape.hpp, RowTiles): block (bx, tile) has 256 threads for
// the range's systems [32 bx, 32 bx + 32) (block_systems), W = system_lanes(its systems) lanes for consecutive
// systems and 256 / W for the rows of its tile, which they step through; each thread adds the terms of
// its rows (below `owned`) into Sums sums, the block adds its threads' sums over the row lanes in a
// fixed tree order and writes one partial per system and tile. A range's last block takes the lanes
// its few systems need and gives the rest to rows (a block of 2 systems would otherwise run its tile's
// rows on 8 lanes while 30 idle). So the partials depend on the shape only, never on the schedule.
constexpr index_t block_systems = 32;  // a warp's width

__device__ int system_lanes(index_t width) {
  int lanes = 1;
  while (lanes < width && lanes < block_systems) lanes *= 2;
  return lanes;
}

template <int Sums, class RowOp>
__global__ void __launch_bounds__(block_size)
    tiled_kernel(BatchedShape s, RowTiles tiles, index_t first_tile, index_t owned, RowOp op, double* partials0,
                 double* partials1) {
  __shared__ double lanes[Sums][block_size];
  const index_t block_first = static_cast<index_t>(blockIdx.x) * block_systems;
  const unsigned width = static_cast<unsigned>(system_lanes(s.end - s.begin - block_first)), t = threadIdx.x;
  const unsigned lane = t % width, row_lane = t / width, row_lanes = block_size / width;
  const index_t sys = s.begin + block_first + static_cast<index_t>(lane);
  const bool active = sys < s.end;
  const index_t tile = first_tile + static_cast<index_t>(blockIdx.y);
  const index_t first = tile * tiles.rows_per_tile;
  const index_t last = min(first + tiles.rows_per_tile, s.rows);
  double acc[Sums] = {};
  if (active)
    for (index_t c = first + static_cast<index_t>(row_lane); c < last; c += static_cast<index_t>(row_lanes))
      op(c, sys, c < owned, acc, s.systems);
#pragma unroll
  for (int k = 0; k < Sums; ++k) lanes[k][t] = acc[k];
  __syncthreads();
  for (unsigned half = row_lanes / 2; half > 0; half /= 2) {
    if (row_lane < half)
#pragma unroll
      for (int k = 0; k < Sums; ++k) lanes[k][t] += lanes[k][t + half * width];
    __syncthreads();
  }
  if (row_lane != 0 || !active) return;
  const std::int64_t at = static_cast<std::int64_t>(tile) * s.systems + sys;
  partials0[at] = lanes[0][t];
  if constexpr (Sums > 1) partials1[at] = lanes[1][t];
}

// Over the tiles `span` of row_tiles (all of them by default).
template <int Sums, class RowOp>
void launch_tiled(void* stream, const BatchedShape& s, index_t owned, RowOp op, double* partials0,
                  double* partials1 = nullptr, std::optional<TileSpan> span = {}) {
  const RowTiles tiles = row_tiles(Backend::cuda, s.rows);
  const TileSpan run = span.value_or(TileSpan{0, tiles.count});
  if (s.width() == 0 || run.empty()) return;
  const dim3 grid(static_cast<unsigned>((s.width() + block_systems - 1) / block_systems),
                  static_cast<unsigned>(run.end - run.first));
  tiled_kernel<Sums><<<grid, block_size, 0, as_stream(stream)>>>(s, tiles, run.first, owned, op, partials0,
                                                                 partials1);
  MINIAPP_CUDA_CHECK_LAUNCH("tiled_kernel");
}

struct DotRow {
  const double* u;
  const double* v;  // null: column sums of u
  __device__ void operator()(index_t c, index_t sys, bool owned, double (&acc)[1], index_t systems) const {
    if (!owned) return;
    const std::int64_t i = static_cast<std::int64_t>(c) * systems + sys;
    acc[0] += u[i] * (v ? v[i] : 1.0);
  }
};

struct SpmvDotRow {
  ShiftedPointers m;
  BatchedShape shape;
  const double* x;
  double* y;
  __device__ void operator()(index_t c, index_t sys, bool owned, double (&acc)[1], index_t systems) const {
    const std::int64_t i = static_cast<std::int64_t>(c) * systems + sys;
    const double yi = shifted_row(m, shape, c, sys, x);
    y[i] = yi;
    if (owned) acc[0] += x[i] * yi;
  }
};

struct CgUpdateRow {
  ShiftedPointers m;
  CgUpdateVectors v;
  index_t jacobi_begin;
  __device__ void operator()(index_t c, index_t sys, bool owned, double (&acc)[2], index_t systems) const {
    const std::int64_t i = static_cast<std::int64_t>(c) * systems + sys;
    const double a = __ldg(v.alpha + sys);
    v.x[i] += a * v.p[i];
    const double r = v.r[i] - a * v.q[i];
    v.r[i] = r;
    const double rz = sys >= jacobi_begin ? r * jacobi_z(m, c, sys, r) : 0.0;
    if (owned) {
      acc[0] += rz;
      acc[1] += r * r;
    }
  }
};

// The partials of system sys summed in tile order: the block's threads over the tiles, then block_sum
// (a fixed order); valid in thread 0. One block per system.
__device__ inline double tile_sum(const double* __restrict__ partials, index_t tiles, index_t systems, index_t sys) {
  double sum = 0.0;
  for (index_t t = static_cast<index_t>(threadIdx.x); t < tiles; t += block_size)
    sum += partials[static_cast<std::int64_t>(t) * systems + sys];
  return miniapp::cuda::detail::block_sum(sum);
}

__global__ void __launch_bounds__(block_size)
    column_sums_kernel(BatchedShape s, index_t tiles, const double* __restrict__ partials, double* __restrict__ out) {
  const index_t sys = s.begin + static_cast<index_t>(blockIdx.x);
  const double sum = tile_sum(partials, tiles, s.systems, sys);
  if (threadIdx.x == 0) out[sys] = sum;
}

__global__ void __launch_bounds__(block_size)
    start_kernel(index_t systems, double* state, const double* __restrict__ sums, double tolerance) {
  const index_t s = static_cast<index_t>(blockIdx.x) * block_size + static_cast<index_t>(threadIdx.x);
  if (s < systems)
    batched_cg::start(state, systems, s, sums[s], sums[systems + s], sums[2 * systems + s], tolerance);
}

__global__ void __launch_bounds__(block_size)
    finish_curvature_kernel(BatchedShape s, index_t tiles, double* state, const double* __restrict__ sigma) {
  const index_t sys = s.begin + static_cast<index_t>(blockIdx.x);
  const double sum = tile_sum(sigma, tiles, s.systems, sys);
  if (threadIdx.x == 0) batched_cg::finish_curvature(state, s.systems, sys, sum);
}

__global__ void __launch_bounds__(block_size) finish_residual_kernel(BatchedShape s, index_t tiles, double* state,
                                                                     const double* __restrict__ rho_new,
                                                                     const double* __restrict__ gamma) {
  const index_t sys = s.begin + static_cast<index_t>(blockIdx.x);
  const double rz = tile_sum(rho_new, tiles, s.systems, sys), rr = tile_sum(gamma, tiles, s.systems, sys);
  if (threadIdx.x == 0) batched_cg::finish_residual(state, s.systems, sys, rz, rr);
}

}  // namespace

void batched_spmv(void* stream, const ShiftedPointers& m, BatchedShape shape, const double* x, double* y) {
  if (empty(shape)) return;
  batched_spmv_kernel<<<item_blocks(shape), block_size, 0, as_stream(stream)>>>(m, shape, x, y);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_spmv_kernel");
}

void batched_spmv_warp_rows(void* stream, const CsrView& a, BatchedShape shape, const double* x, double* y) {
  if (empty(shape)) return;
  batched_spmv_warp_kernel<<<miniapp::cuda::detail::warp_row_blocks(shape.rows), block_size, 0, as_stream(stream)>>>(
      a, shape, x, y);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_spmv_warp_kernel");
}

void batched_jacobi(void* stream, const ShiftedPointers& m, BatchedShape shape, const double* r, double* z) {
  if (empty(shape)) return;
  batched_jacobi_kernel<<<item_blocks(shape), block_size, 0, as_stream(stream)>>>(m, shape, r, z);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_jacobi_kernel");
}

void batched_column_sums(void* stream, BatchedShape shape, const double* partials, double* out) {
  if (shape.width() == 0) return;
  column_sums_kernel<<<static_cast<unsigned>(shape.width()), block_size, 0, as_stream(stream)>>>(
      shape, row_tiles(Backend::cuda, shape.rows).count, partials, out);
  MINIAPP_CUDA_CHECK_LAUNCH("column_sums_kernel");
}

void batched_dot_partials(void* stream, BatchedShape shape, index_t owned, const double* u, const double* v,
                          double* partials) {
  launch_tiled<1>(stream, shape, owned, DotRow{u, v}, partials);
}

void batched_spmv_dot(void* stream, const ShiftedPointers& m, BatchedShape shape, index_t owned, const double* x,
                      double* y, double* partials, TileSpan tiles) {
  launch_tiled<1>(stream, shape, owned, SpmvDotRow{m, shape, x, y}, partials, nullptr, tiles);
}

void batched_cg_update_jacobi(void* stream, const ShiftedPointers& m, BatchedShape shape, index_t jacobi_begin,
                              index_t owned, const CgUpdateVectors& v, double* rz_partials, double* rr_partials) {
  launch_tiled<2>(stream, shape, owned, CgUpdateRow{m, v, jacobi_begin}, rz_partials,
                  rr_partials);
}

void batched_direction_jacobi(void* stream, const ShiftedPointers& m, BatchedShape shape, index_t jacobi_begin,
                              const DirectionVectors& v) {
  if (empty(shape)) return;
  const index_t half_rows = (shape.rows + 1) / 2;
  batched_direction_jacobi_kernel<<<item_blocks({half_rows, shape.systems, shape.begin, shape.end}), block_size, 0,
                                    as_stream(stream)>>>(m, shape, half_rows, jacobi_begin, v);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_direction_jacobi_kernel");
}

// The same with no Jacobi system: the matrix is never read.
void batched_direction(void* stream, BatchedShape shape, const double* beta, const double* z, double* p) {
  batched_direction_jacobi(stream, ShiftedPointers{}, shape, shape.end, {beta, z, nullptr, p});
}

void batched_subtract_mean(void* stream, BatchedShape shape, const double* sums, double count, double* v) {
  if (empty(shape)) return;
  batched_subtract_mean_kernel<<<item_blocks(shape), block_size, 0, as_stream(stream)>>>(shape, sums, count, v);
  MINIAPP_CUDA_CHECK_LAUNCH("batched_subtract_mean_kernel");
}

void batched_finish_curvature(void* stream, BatchedShape shape, index_t tiles, double* state, const double* sigma) {
  if (shape.width() == 0) return;
  finish_curvature_kernel<<<static_cast<unsigned>(shape.width()), block_size, 0, as_stream(stream)>>>(shape, tiles,
                                                                                                      state, sigma);
  MINIAPP_CUDA_CHECK_LAUNCH("finish_curvature_kernel");
}

void batched_finish_residual(void* stream, BatchedShape shape, index_t tiles, double* state, const double* rho_new,
                             const double* gamma) {
  if (shape.width() == 0) return;
  finish_residual_kernel<<<static_cast<unsigned>(shape.width()), block_size, 0, as_stream(stream)>>>(
      shape, tiles, state, rho_new, gamma);
  MINIAPP_CUDA_CHECK_LAUNCH("finish_residual_kernel");
}

void batched_start(void* stream, index_t systems, double* state, const double* sums, double tolerance) {
  if (systems == 0) return;
  const auto blocks = static_cast<unsigned>((systems + block_size - 1) / block_size);
  start_kernel<<<blocks, block_size, 0, as_stream(stream)>>>(systems, state, sums, tolerance);
  MINIAPP_CUDA_CHECK_LAUNCH("start_kernel");
}

}  // namespace miniapp::fft::cuda
