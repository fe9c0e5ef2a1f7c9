// Fused CG kernels of the CPU reference backend. Reductions are summed per chunk of rows (a chunk
// count that depends on n only) and the chunk sums added in chunk order, so results do not depend on
// the number of OpenMP threads. The vector updates round exactly as the unfused AXPYs do
// (x + α p = α p + 1 · x; no FMA contraction in the portable build).
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"

namespace miniapp::cpu {
namespace {

static_assert(cg::max_partials == max_sum_chunks, "the CG scalars hold one partial sum per chunk");

// Slices [first, last) of a as a matrix of their own: slice pointers stay absolute offsets into
// col and val, rows are those of the range; its y starts at row first · slice_height.
SellView slice_range(const SellView& a, index_t first, index_t last) {
  SellView sub = a;
  sub.slice_ptr = a.slice_ptr + first;
  sub.slice_count = last - first;
  sub.rows = std::min(a.rows, last * a.slice_height) - first * a.slice_height;
  return sub;
}

}  // namespace

// Chunks are whole slices: each runs the tuned sELL SpMV on its range (the nested OpenMP region
// inside is inactive, one thread) and dots its q while it is still in cache. q is bitwise that of
// spmv_sell: every row is summed in the same order.
void cg_spmv_dot(const SellView& a, const double* p, double* q, const cg::ScalarsView& s) {
  if (cg::stopped(s.slots)) return;
  const index_t h = a.slice_height;
  double sigma[1];
  chunked_sums(a.slice_count, slices_per_chunk(a.rows, h, a.slice_count), s.partials, sigma, [&](index_t first, index_t last, double* acc) {
    const SellView sub = slice_range(a, first, last);
    spmv_sell(sub, p, q + first * h);
    const index_t row0 = first * h;
    add_lane_sums<1>(row0, row0 + sub.rows, acc, [&](index_t i) { return std::array<double, 1>{p[i] * q[i]}; });
  });
  cg::finish_curvature(s.slots, sigma[0]);
}

// As cg_spmv_dot, the product A z of each chunk into a buffer of the thread's (grown once, then
// reused: nothing is allocated per iteration), then p, q and σ row by row. σ stays one running sum
// here: summed in lanes (add_lane_sums) beside the two stores, the loop ran slower.
void cg_direction_spmv_dot(const SellView& a, const double* z, double* p, double* q, const cg::ScalarsView& s) {
  if (cg::stopped(s.slots)) return;
  const double beta = s.slots[cg::beta];
  const index_t h = a.slice_height;
  double sigma[1];
  chunked_sums(a.slice_count, slices_per_chunk(a.rows, h, a.slice_count), s.partials, sigma, [&](index_t first, index_t last, double* acc) {
    const SellView sub = slice_range(a, first, last);
    thread_local std::vector<double> az;
    if (az.size() < static_cast<std::size_t>(sub.rows)) az.resize(static_cast<std::size_t>(sub.rows));
    spmv_sell(sub, z, az.data());
    const index_t row0 = first * h;
    for (index_t k = 0; k < sub.rows; ++k) {
      const index_t i = row0 + k;
      p[i] = z[i] + beta * p[i];
      q[i] = az[static_cast<std::size_t>(k)] + beta * q[i];
      acc[0] += p[i] * q[i];
    }
  });
  cg::finish_curvature(s.slots, sigma[0]);
}

void cg_update(index_t n, const double* p, const double* q, double* x, const double* r, double* r_new,
               const cg::ScalarsView& s) {
  if (cg::stopped(s.slots)) return;
  const double alpha = s.slots[cg::alpha];
  double gamma[1];
  row_sums(n, s.partials, gamma, [&](index_t i) {
    x[i] = x[i] + alpha * p[i];
    r_new[i] = r[i] - alpha * q[i];
    return std::array<double, 1>{r_new[i] * r_new[i]};
  });
  cg::finish_residual(s.slots, gamma[0]);
}

void cg_update_jacobi(index_t n, const double* d, const double* p, const double* q, double* x, double* r, double* z,
                      const cg::ScalarsView& s) {
  if (cg::stopped(s.slots)) return;
  const double alpha = s.slots[cg::alpha];
  double sums[2];  // r·r, r·z
  row_sums(n, s.partials, sums, [&](index_t i) {
    x[i] = x[i] + alpha * p[i];
    const double ri = r[i] - alpha * q[i];
    r[i] = ri;
    z[i] = d[i] * ri;
    return std::array<double, 2>{ri * ri, ri * z[i]};
  });
  cg::finish_residual(s.slots, sums[0]);
  cg::finish_rho(s.slots, sums[1]);
}

void cg_rho(index_t n, const double* r, const double* z, const cg::ScalarsView& s) {
  if (cg::stopped(s.slots)) return;
  double rho[1];
  row_sums(n, s.partials, rho, [&](index_t i) { return std::array<double, 1>{r[i] * z[i]}; });
  cg::finish_rho(s.slots, rho[0]);
}

void cg_mean(index_t n, const double* v, const cg::ScalarsView& s) {
  double sum[1];
  row_sums(n, s.partials, sum, [&](index_t i) { return std::array<double, 1>{v[i]}; });
  s.slots[cg::mean] = sum[0] / static_cast<double>(n);
}

void cg_subtract_mean(index_t n, double* v, const cg::ScalarsView& s) {
  const double mean = s.slots[cg::mean];
#pragma omp parallel for simd schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) v[i] = v[i] - mean;
}

void cg_start(index_t n, const double* b, const double* r, const cg::ScalarsView& s, double tolerance,
              double max_iterations) {
  double sums[2];  // b·b, r·r
  row_sums(n, s.partials, sums, [&](index_t i) { return std::array<double, 2>{b[i] * b[i], r[i] * r[i]}; });
  cg::finish_start(s.slots, sums[0], sums[1], tolerance, max_iterations);
}

void cg_loop_test(const cg::ScalarsView& s, int body) { cg::loop_continues(s.slots, body); }

}  // namespace miniapp::cpu
