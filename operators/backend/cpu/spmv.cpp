#include <algorithm>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/kernels/spmv.hpp"

// Instruction-set clones of the SpMV inner loops: the compiler builds each for AVX-512, AVX2+FMA and
// the x86-64 baseline and the loader picks one for the running CPU (ifunc), so the binary stays
// portable without -march=native yet gathers x with vgatherdpd where it can.
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define MINIAPP_CPU_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
#endif
#ifndef MINIAPP_CPU_CLONES
#define MINIAPP_CPU_CLONES
#endif

namespace miniapp::cpu {
namespace {

// Slices per OpenMP work item: large enough that the per-item call is noise, small enough that
// the two halves of a static schedule stay balanced.
constexpr index_t slice_block = 256;

// Rows of a slice of any height are processed in chunks of this many so that the accumulators live
// on the stack.
constexpr index_t chunk_rows = 64;

// Full slices [first, last) of compile-time height H. The H accumulators of one vector stay in
// registers (H = 8 doubles: one AVX-512 register, one cache line of y); entry e of the slice's rows
// is contiguous, so each step is an H-wide load of val and col, a gather from x and an FMA.
// A second vector re-reads the slice (12 · H · width bytes, under 1 KiB here) from L1, not DRAM.
// Always inlined so that each instruction-set clone of the caller gets its own copy of the loop.
template <index_t H>
[[gnu::always_inline]] inline void sell_full_slices(const SellView& a, index_t first, index_t last, int k, const double* const* x,
                      double* const* y) {
  for (index_t s = first; s < last; ++s) {
    const index_t begin = a.slice_ptr[s];
    const index_t width = (a.slice_ptr[s + 1] - begin) / H;
    const double* val = a.val + begin;
    const index_t* col = a.col + begin;
    for (int j = 0; j < k; ++j) {
      const double* xj = x[j];
      double acc[H] = {};
      for (index_t e = 0; e < width; ++e) {
#pragma omp simd
        for (index_t r = 0; r < H; ++r) acc[r] += val[e * H + r] * xj[col[e * H + r]];
      }
      std::copy_n(acc, H, y[j] + s * H);
    }
  }
}

// Full slices [first, last) for the heights with a fixed-size kernel; returns false for others.
MINIAPP_CPU_CLONES bool sell_fixed_height(const SellView& a, index_t first, index_t last, int k,
                                          const double* const* x, double* const* y) {
  switch (a.slice_height) {
    case 4: sell_full_slices<4>(a, first, last, k, x, y); return true;
    case 8: sell_full_slices<8>(a, first, last, k, x, y); return true;
    case 16: sell_full_slices<16>(a, first, last, k, x, y); return true;
    case 32: sell_full_slices<32>(a, first, last, k, x, y); return true;
    default: return false;
  }
}

// y[j] for `m` rows of one slice starting at row `first` of the slice, any slice height.
void sell_chunk(const SellView& a, index_t slice, index_t first, index_t m, int k, const double* const* x,
                double* const* y) {
  const index_t height = a.slice_height;
  const index_t begin = a.slice_ptr[slice];
  const index_t width = (a.slice_ptr[slice + 1] - begin) / height;
  double acc[max_spmv_vectors][chunk_rows];
  for (int j = 0; j < k; ++j) std::fill_n(acc[j], m, 0.0);  // only what is used: slices may be 1 row
  for (index_t e = 0; e < width; ++e) {
    const double* val = a.val + begin + e * height + first;
    const index_t* col = a.col + begin + e * height + first;
    for (int j = 0; j < k; ++j) {
      const double* xj = x[j];
      double* accj = acc[j];
#pragma omp simd
      for (index_t r = 0; r < m; ++r) accj[r] += val[r] * xj[col[r]];
    }
  }
  const index_t row0 = slice * height + first;
  for (int j = 0; j < k; ++j) std::copy(acc[j], acc[j] + m, y[j] + row0);
}

// One slice of any height; rows past a.rows (padding of the last slice) are not written.
void sell_any_slice(const SellView& a, index_t s, int k, const double* const* x, double* const* y) {
  const index_t live = std::min(a.slice_height, a.rows - s * a.slice_height);
  for (index_t first = 0; first < live; first += chunk_rows)
    sell_chunk(a, s, first, std::min(chunk_rows, live - first), k, x, y);
}

}  // namespace

void spmv_sell_multi(const SellView& a, int k, const double* const* x, double* const* y) {
  const index_t full_slices = a.rows / a.slice_height;  // slices without padding rows
#pragma omp parallel for schedule(static)
  for (index_t b = 0; b < a.slice_count; b += slice_block) {
    const index_t end = std::min(b + slice_block, a.slice_count);
    index_t s = b;
    if (std::min(end, full_slices) > b && sell_fixed_height(a, b, std::min(end, full_slices), k, x, y))
      s = std::min(end, full_slices);
    for (; s < end; ++s) sell_any_slice(a, s, k, x, y);
  }
}

void spmv_sell(const SellView& a, const double* x, double* y) { spmv_sell_multi(a, 1, &x, &y); }

void spmv_csr(const CsrView& a, const double* x, double* y) {
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0.0;
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) sum += a.val[p] * x[a.col[p]];
    y[r] = sum;
  }
}

}  // namespace miniapp::cpu
