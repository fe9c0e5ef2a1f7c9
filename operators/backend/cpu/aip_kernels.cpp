// The AIP apply of the CPU reference backend: y = G r, then z = Gᵀ y with r·z, or z = (Gᵀ G) r with
// r·z, sELL passes over float values. The r·z partial sums belong to fixed blocks of slices (set by
// the size alone) and are added in block order, so ρ does not depend on the number of OpenMP threads.
#include <algorithm>
#include <array>
#include <type_traits>

#include "operators/backend/cpu/aip_kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "operators/backend/cpu/row_store.hpp"
#include "operators/backend/cpu/x86_loads.hpp"

namespace miniapp::cpu {
namespace {

// The products of the rows of slice s (rows past a.rows left out) to `store`, portable: one accumulator
// per row of the slice in chunks of 8 rows, entries in stored order.
template <class Store>
void slice_portable(const SellFloatView& a, index_t s, const double* x, const Store& store) {
  const index_t h = a.slice_height, begin = a.slice_ptr[s], width = (a.slice_ptr[s + 1] - begin) / h;
  const index_t live = std::min(h, a.rows - s * h);
  for (index_t first = 0; first < live; first += 8) {
    const index_t m = std::min<index_t>(8, live - first);
    double acc[8] = {};
    for (index_t e = 0; e < width; ++e)
      for (index_t r = 0; r < m; ++r) {
        const index_t k = begin + e * h + first + r;
        acc[r] += static_cast<double>(a.val[k]) * x[a.col[k]];
      }
    store(0, s * h + first, acc, m);
  }
}

#ifdef MINIAPP_X86_AVX2
// The same for a full slice of height 8 with AVX2 + FMA: per entry column, 2 × (4 floats widened to
// doubles, 4 entries of x by XLoads, an FMA). Same products and order as the portable loop, but fused.
template <class XLoads, class Store>
__attribute__((target("avx2,fma"))) void slice8_avx2(const SellFloatView& a, index_t s, const double* x,
                                                     const Store& store) {
  const index_t begin = a.slice_ptr[s], width = (a.slice_ptr[s + 1] - begin) / 8;
  __m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
  for (index_t e = 0; e < width; ++e) {
    const float* val = a.val + begin + 8 * e;
    const index_t* col = a.col + begin + 8 * e;
    lo = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(val)), XLoads::load(x, col), lo);
    hi = _mm256_fmadd_pd(_mm256_cvtps_pd(_mm_loadu_ps(val + 4)), XLoads::load(x, col + 4), hi);
  }
  if constexpr (std::is_same_v<Store, PlainStore>) {
    _mm256_storeu_pd(store.y[0] + 8 * s, lo);
    _mm256_storeu_pd(store.y[0] + 8 * s + 4, hi);
  } else {
    double out[8];
    _mm256_storeu_pd(out, lo);
    _mm256_storeu_pd(out + 4, hi);
    store(0, 8 * s, out, 8);
  }
}
#endif

// The products A x over slices [first, last), to `store`: full slices of height 8 with AVX2 where the
// processor has it, the others portable.
template <class Store>
void slices(const SellFloatView& a, index_t first, index_t last, const double* x, const Store& store) {
#ifdef MINIAPP_X86_AVX2
  if (cpu_has_avx2_fma() && a.slice_height == 8) {
    with_x_loads([&](auto loads) {
      for (index_t s = first; s < last; ++s) {
        if ((s + 1) * 8 <= a.rows) slice8_avx2<decltype(loads)>(a, s, x, store);
        else slice_portable(a, s, x, store);
      }
    });
    return;
  }
#endif
  for (index_t s = first; s < last; ++s) slice_portable(a, s, x, store);
}
// y = A x over slices [first, last).
void slices(const SellFloatView& a, index_t first, index_t last, const double* x, double* y) {
  slices(a, first, last, x, PlainStore{&y});
}

// Slices per block: ≥ 4096 rows (the per-block overhead is noise) and at most cg::max_partials blocks.
index_t block_slices(const SellFloatView& a) {
  const index_t h = a.slice_height;
  return std::max((4096 + h - 1) / h, (a.slice_count + cg::max_partials - 1) / cg::max_partials);
}

}  // namespace

// Bytes: each pass's matrix once, r read and z written (two passes: y written and read); r·z re-reads
// a block of r and z from cache.
void aip_apply(const AipFactorView& f, const double* r, double* z, const cg::ScalarsView& s) {
  const bool with_rho = s.slots != nullptr;
  if (with_rho && cg::stopped(s.slots)) return;
  const bool parallel = worth_parallel(f.first.rows);
  const index_t per_block = block_slices(f.first), blocks = (f.first.slice_count + per_block - 1) / per_block;
  const SellFloatView& last_pass = f.passes == 2 ? f.second : f.first;
  const double* last_input = f.passes == 2 ? f.work : r;
  if (f.passes == 2) {
#pragma omp parallel for schedule(static) if (parallel)
    for (index_t b = 0; b < blocks; ++b)
      slices(f.first, b * per_block, std::min(f.first.slice_count, (b + 1) * per_block), r, f.work);
  }
#pragma omp parallel for schedule(static) if (parallel)
  for (index_t b = 0; b < blocks; ++b) {
    const index_t last = std::min(last_pass.slice_count, (b + 1) * per_block);
    slices(last_pass, b * per_block, last, last_input, z);
    if (!with_rho) continue;
    double sum[1] = {};
    const index_t end = std::min(last_pass.rows, last * last_pass.slice_height);
    add_lane_sums<1>(b * per_block * last_pass.slice_height, end, sum,
                     [&](index_t i) { return std::array<double, 1>{r[i] * z[i]}; });
    s.partials[b] = sum[0];
  }
  if (!with_rho) return;
  double rho = 0.0;
  for (index_t b = 0; b < blocks; ++b) rho += s.partials[b];
  cg::finish_rho(s.slots, rho);
}

namespace {

// A product whose rows go to an epilogue, in the plain apply's blocks of slices.
template <class Epilogue>
void fused_product(const SellFloatView& a, const double* x, const Epilogue& e) {
  const index_t per_block = block_slices(a), blocks = (a.slice_count + per_block - 1) / per_block;
#pragma omp parallel for schedule(static) if (worth_parallel(a.rows))
  for (index_t b = 0; b < blocks; ++b)
    slices(a, b * per_block, std::min(a.slice_count, (b + 1) * per_block), x, EpilogueStore<Epilogue>{e});
}

}  // namespace

void spmv_fused(const SellFloatView& a, const double* x, const AxpbyEpilogue& e) { fused_product(a, x, e); }
void spmv_fused(const SellFloatView& a, const double* x, const JacobiEpilogue& e) { fused_product(a, x, e); }

void round_to_float(index_t n, double* x) {
#pragma omp parallel for schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) x[i] = static_cast<float>(x[i]);
}

void narrow_to_float(index_t n, const double* x, float* y) {
#pragma omp parallel for schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) y[i] = static_cast<float>(x[i]);
}

}  // namespace miniapp::cpu
