// CPU reference of the batched frequency kernels: OpenMP over rows (over tiles of rows where column
// sums are formed), the systems of a row in the innermost loop (contiguous, vectorised by the
// compiler, as in thesis Algorithm 4).
#include "solvers/fft/cpu/batched_kernels.hpp"

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "solvers/fft/batched_cg_scalars.hpp"

namespace miniapp::fft::cpu {

namespace {

std::size_t at(const BatchedShape& s, index_t row) { return static_cast<std::size_t>(row) * s.systems + s.begin; }

// Jacobi's z of row c, system sys: one expression wherever it is formed, so that the update's r·z and
// the direction's z are the same numbers as batched_jacobi's.
double jacobi_z(const ShiftedPointers& m, index_t c, index_t sys, double r) {
  return r / (m.diagonal[c] + m.shifts[sys] * m.w[c]);
}

// Row c of y_s = (A + σ_s diag(w)) x_s for the systems of the shape (Algorithm 3): the shift term first,
// then A's entries in stored order (the CUDA kernels sum in the same order).
void shifted_row(const ShiftedPointers& m, const BatchedShape& shape, index_t c, const double* x, double* yc) {
  const index_t w = shape.width();
  const double* xc = x + at(shape, c);
  const double* sigma = m.shifts ? m.shifts + shape.begin : nullptr;
  for (index_t s = 0; s < w; ++s) yc[s] = sigma ? sigma[s] * m.w[c] * xc[s] : 0.0;
  for (index_t i = m.a.row_ptr[c]; i < m.a.row_ptr[c + 1]; ++i) {
    const double v = m.a.val[i];
    const double* xj = x + at(shape, m.a.col[i]);
    for (index_t s = 0; s < w; ++s) yc[s] += v * xj[s];
  }
}

// Rows summed side by side by shifted_row_group.
constexpr index_t row_group = 4;

template <index_t W>
void sum_row_group(const ShiftedPointers& m, const BatchedShape& shape, index_t first, index_t length, const double* x,
                   double* y) {
  const double* sigma = m.shifts ? m.shifts + shape.begin : nullptr;
  double sum[row_group][W];  // fixed sizes and unrolled loops: the sums stay in registers
#pragma GCC unroll 4
  for (index_t r = 0; r < row_group; ++r) {
    const double* xc = x + at(shape, first + r);
    for (index_t s = 0; s < W; ++s) sum[r][s] = sigma ? sigma[s] * m.w[first + r] * xc[s] : 0.0;
  }
  const index_t* start = m.a.row_ptr + first;
  for (index_t k = 0; k < length; ++k)
#pragma GCC unroll 4
    for (index_t r = 0; r < row_group; ++r) {
      const index_t i = start[r] + k;
      const double v = m.a.val[i];
      const double* xj = x + at(shape, m.a.col[i]);
#pragma GCC unroll 8
      for (index_t s = 0; s < W; ++s) sum[r][s] += v * xj[s];
    }
  for (index_t r = 0; r < row_group; ++r) std::copy_n(sum[r], W, y + at(shape, first + r));
}

// Rows first..first + row_group − 1 as shifted_row computes them, bit for bit (each row and system
// summed in the same order), where they have equal lengths and the shape is at most 8 systems wide;
// returns false, writing nothing, otherwise. A long row over few systems (an AMG block's dense coarse
// inverse: hundreds of entries for 2-6 systems) is otherwise bound by the latency of its few chains
// of additions; side by side the rows' chains overlap.
bool shifted_row_group(const ShiftedPointers& m, const BatchedShape& shape, index_t first, const double* x,
                       double* y) {
  const index_t length = m.a.row_ptr[first + 1] - m.a.row_ptr[first];
  for (index_t c = first + 1; c < first + row_group; ++c)
    if (m.a.row_ptr[c + 1] - m.a.row_ptr[c] != length) return false;
  switch (shape.width()) {
    case 1: sum_row_group<1>(m, shape, first, length, x, y); return true;
    case 2: sum_row_group<2>(m, shape, first, length, x, y); return true;
    case 3: sum_row_group<3>(m, shape, first, length, x, y); return true;
    case 4: sum_row_group<4>(m, shape, first, length, x, y); return true;
    case 5: sum_row_group<5>(m, shape, first, length, x, y); return true;
    case 6: sum_row_group<6>(m, shape, first, length, x, y); return true;
    case 7: sum_row_group<7>(m, shape, first, length, x, y); return true;
    case 8: sum_row_group<8>(m, shape, first, length, x, y); return true;
    default: return false;
  }
}

// Runs row_op(c, sums) over the rows of the tiles `span` of row_tiles (all of them by default), tiles
// in parallel, and writes each tile's Sums column sums of the shape's systems to partials[k][tile · S +
// s]. row_op adds the terms of row c into sums[k][s − begin] (only for rows < owned: the caller's
// business).
template <int Sums, class RowOp>
void tiled(const BatchedShape& shape, double* const (&partials)[Sums], RowOp&& row_op, std::optional<TileSpan> span = {}) {
  const RowTiles tiles = row_tiles(Backend::cpu, shape.rows);
  const TileSpan run = span.value_or(TileSpan{0, tiles.count});
  const index_t w = shape.width();
  // Each thread's sums, allocated before the region: an allocation that fails inside one could not
  // report itself (core/parallel_exceptions.hpp).
  const auto per_thread = static_cast<std::size_t>(Sums) * static_cast<std::size_t>(w);
  std::vector<double> all_sums(per_thread * static_cast<std::size_t>(omp_get_max_threads()));
#pragma omp parallel
  {
    const auto sums = all_sums.begin() + static_cast<std::ptrdiff_t>(per_thread * omp_get_thread_num());
#pragma omp for schedule(static)
    for (index_t t = run.first; t < run.end; ++t) {
      std::fill_n(sums, per_thread, 0.0);
      const index_t last = std::min<index_t>(shape.rows, (t + 1) * tiles.rows_per_tile);
      for (index_t c = t * tiles.rows_per_tile; c < last; ++c) row_op(c, &*sums);
      for (int k = 0; k < Sums; ++k)
        for (index_t s = 0; s < w; ++s) partials[k][at(shape, t) + s] = sums[k * w + s];
    }
  }
}

}  // namespace

void batched_spmv(const ShiftedPointers& m, BatchedShape shape, const double* x, double* y) {
  const index_t groups = (shape.rows + row_group - 1) / row_group;
#pragma omp parallel for schedule(static)
  for (index_t g = 0; g < groups; ++g) {
    const index_t first = g * row_group, last = std::min<index_t>(shape.rows, first + row_group);
    if (last - first < row_group || !shifted_row_group(m, shape, first, x, y))
      for (index_t c = first; c < last; ++c) shifted_row(m, shape, c, x, y + at(shape, c));
  }
}

void batched_jacobi(const ShiftedPointers& m, BatchedShape shape, const double* r, double* z) {
  const index_t w = shape.width();
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < shape.rows; ++c)
    for (index_t s = 0; s < w; ++s) z[at(shape, c) + s] = jacobi_z(m, c, shape.begin + s, r[at(shape, c) + s]);
}

namespace {

// Σ over `tiles` rows of partials of system s, in tile order.
double tile_sum(const double* partials, index_t tiles, index_t systems, index_t s) {
  double sum = 0;
  for (index_t t = 0; t < tiles; ++t) sum += partials[static_cast<std::size_t>(t) * systems + s];
  return sum;
}

}  // namespace

void batched_column_sums(BatchedShape shape, const double* partials, double* out) {
  const index_t tiles = row_tiles(Backend::cpu, shape.rows).count;
  for (index_t s = shape.begin; s < shape.end; ++s) out[s] = tile_sum(partials, tiles, shape.systems, s);
}

void batched_dot_partials(BatchedShape shape, index_t owned, const double* u, const double* v, double* partials) {
  const index_t w = shape.width();
  double* const sums[] = {partials};
  tiled<1>(shape, sums, [&](index_t c, double* acc) {
    if (c >= owned) return;
    for (index_t s = 0; s < w; ++s) acc[s] += u[at(shape, c) + s] * (v ? v[at(shape, c) + s] : 1.0);
  });
}

void batched_spmv_dot(const ShiftedPointers& m, BatchedShape shape, index_t owned, const double* x, double* y,
                      double* partials, TileSpan tiles) {
  const index_t w = shape.width();
  double* const sums[] = {partials};
  tiled<1>(
      shape, sums,
      [&](index_t c, double* acc) {
        double* yc = y + at(shape, c);
        shifted_row(m, shape, c, x, yc);
        if (c >= owned) return;
        for (index_t s = 0; s < w; ++s) acc[s] += x[at(shape, c) + s] * yc[s];
      },
      tiles);
}

void batched_cg_update_jacobi(const ShiftedPointers& m, BatchedShape shape, index_t jacobi_begin, index_t owned,
                              const CgUpdateVectors& v, double* rz_partials, double* rr_partials) {
  const index_t w = shape.width(), first_jacobi = jacobi_begin - shape.begin;
  double* const sums[] = {rz_partials, rr_partials};
  tiled<2>(shape, sums, [&](index_t c, double* acc) {
    for (index_t s = 0; s < w; ++s) {
      const std::size_t i = at(shape, c) + s;
      const double a = v.alpha[shape.begin + s];
      v.x[i] += a * v.p[i];
      const double r = v.r[i] - a * v.q[i];
      v.r[i] = r;
      const double rz = s >= first_jacobi ? r * jacobi_z(m, c, shape.begin + s, r) : 0.0;
      if (c < owned) {
        acc[s] += rz;
        acc[w + s] += r * r;
      }
    }
  });
}

void batched_direction_jacobi(const ShiftedPointers& m, BatchedShape shape, index_t jacobi_begin,
                              const DirectionVectors& v) {
  const index_t w = shape.width(), first_jacobi = jacobi_begin - shape.begin;
  const double* b = v.beta + shape.begin;
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < shape.rows; ++c) {
    const std::size_t row = at(shape, c);
    for (index_t s = 0; s < first_jacobi; ++s) v.p[row + s] = v.z[row + s] + b[s] * v.p[row + s];
    for (index_t s = first_jacobi; s < w; ++s)
      v.p[row + s] = jacobi_z(m, c, shape.begin + s, v.r[row + s]) + b[s] * v.p[row + s];
  }
}

// The same with no Jacobi system: the matrix is never read.
void batched_direction(BatchedShape shape, const double* beta, const double* z, double* p) {
  batched_direction_jacobi(ShiftedPointers{}, shape, shape.end, {beta, z, nullptr, p});
}

void batched_subtract_mean(BatchedShape shape, const double* sums, double count, double* v) {
  const index_t w = shape.width();
  const double* a = sums + shape.begin;
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < shape.rows; ++c)
    for (index_t s = 0; s < w; ++s) v[at(shape, c) + s] -= a[s] / count;
}

void batched_finish_curvature(BatchedShape shape, index_t tiles, double* state, const double* sigma) {
  for (index_t s = shape.begin; s < shape.end; ++s)
    batched_cg::finish_curvature(state, shape.systems, s, tile_sum(sigma, tiles, shape.systems, s));
}

void batched_finish_residual(BatchedShape shape, index_t tiles, double* state, const double* rho_new,
                             const double* gamma) {
  for (index_t s = shape.begin; s < shape.end; ++s)
    batched_cg::finish_residual(state, shape.systems, s, tile_sum(rho_new, tiles, shape.systems, s),
                                tile_sum(gamma, tiles, shape.systems, s));
}

void batched_start(index_t systems, double* state, const double* sums, double tolerance) {
  for (index_t s = 0; s < systems; ++s)
    batched_cg::start(state, systems, s, sums[s], sums[systems + s], sums[2 * systems + s], tolerance);
}

}  // namespace miniapp::fft::cpu
