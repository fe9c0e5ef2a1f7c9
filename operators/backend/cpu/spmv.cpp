#include <algorithm>
#include <string>
#include <type_traits>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "operators/backend/cpu/row_store.hpp"
#include "operators/backend/cpu/x86_loads.hpp"
#include "operators/backend/kernel_types.hpp"
#include "operators/backend/spmv_epilogue.hpp"

namespace miniapp::cpu {
namespace {

// Slices per OpenMP work item: large enough that the per-item call is noise, small enough that
// the two halves of a static schedule stay balanced.
constexpr index_t slice_block = 256;

// Rows of a slice of any height are processed in chunks of this many so that the accumulators live
// on the stack.
constexpr index_t chunk_rows = 64;

// Full slices [first, last) of compile-time height H, portable C++. The H accumulators of one
// vector stay in registers; entry e of the slice's rows is contiguous, so each step is an H-wide load
// of val and col, H loads from x and H multiply-adds. A second vector re-reads the slice
// (12 · H · width bytes, under 1 KiB for a Laplacian) from L1, not DRAM.
template <index_t H, class Store>
void sell_slices_portable(const SellView& a, index_t first, index_t last, int k, const double* const* x,
                          const Store& store) {
  for (index_t s = first; s < last; ++s) {
    const index_t begin = a.slice_ptr[s];
    const index_t width = (a.slice_ptr[s + 1] - begin) / H;
    for (int j = 0; j < k; ++j) {
      double acc[H] = {};
      for (index_t e = 0; e < width; ++e) {
        const double* val = a.val + begin + e * H;
        const index_t* col = a.col + begin + e * H;
#pragma omp simd
        for (index_t r = 0; r < H; ++r) acc[r] += val[r] * x[j][col[r]];
      }
      store(j, s * H, acc, H);
    }
  }
}

#ifdef MINIAPP_X86_AVX2
// The same with AVX2 + FMA, H a multiple of 4: per step and group of 4 rows, a load of 4 values,
// 4 entries of x (XLoads: a gather or four loads) and one FMA into one of H/4 register accumulators.
template <index_t H, class XLoads, class Store>
__attribute__((target("avx2,fma"))) void sell_slices_avx2(const SellView& a, index_t first, index_t last, int k,
                                                          const double* const* x, const Store& store) {
  static_assert(H % 4 == 0);
  for (index_t s = first; s < last; ++s) {
    const index_t begin = a.slice_ptr[s];
    const index_t width = (a.slice_ptr[s + 1] - begin) / H;
    for (int j = 0; j < k; ++j) {
      __m256d acc[H / 4];
      for (__m256d& v : acc) v = _mm256_setzero_pd();
      for (index_t e = 0; e < width; ++e) {
        const double* val = a.val + begin + e * H;
        const index_t* col = a.col + begin + e * H;
        for (index_t q = 0; q < H / 4; ++q)
          acc[q] = _mm256_fmadd_pd(_mm256_loadu_pd(val + 4 * q), XLoads::load(x[j], col + 4 * q), acc[q]);
      }
      if constexpr (std::is_same_v<Store, PlainStore>) {  // straight from the registers: the hot path
        for (index_t q = 0; q < H / 4; ++q) _mm256_storeu_pd(store.y[j] + s * H + 4 * q, acc[q]);
      } else {
        double out[H];
        for (index_t q = 0; q < H / 4; ++q) _mm256_storeu_pd(out + 4 * q, acc[q]);
        store(j, s * H, out, H);
      }
    }
  }
}
#endif

template <index_t H, class Store>
void sell_slices(const SellView& a, index_t first, index_t last, int k, const double* const* x, const Store& store) {
#ifdef MINIAPP_X86_AVX2
  if (cpu_has_avx2_fma())
    return with_x_loads([&](auto loads) { sell_slices_avx2<H, decltype(loads)>(a, first, last, k, x, store); });
#endif
  sell_slices_portable<H>(a, first, last, k, x, store);
}

// Full slices [first, last) for the heights with a fixed-size kernel; returns false for others.
template <class Store>
bool sell_fixed_height(const SellView& a, index_t first, index_t last, int k, const double* const* x,
                       const Store& store) {
  switch (a.slice_height) {
    case 4: sell_slices<4>(a, first, last, k, x, store); return true;
    case 8: sell_slices<8>(a, first, last, k, x, store); return true;
    case 16: sell_slices<16>(a, first, last, k, x, store); return true;
    case 32: sell_slices<32>(a, first, last, k, x, store); return true;
    default: return false;
  }
}

// y[j] for `m` rows of one slice starting at row `first` of the slice, any slice height.
template <class Store>
void sell_chunk(const SellView& a, index_t slice, index_t first, index_t m, int k, const double* const* x,
                const Store& store) {
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
  for (int j = 0; j < k; ++j) store(j, row0, acc[j], m);
}

// One slice of any height; rows past a.rows (padding of the last slice) are not written.
template <class Store>
void sell_any_slice(const SellView& a, index_t s, int k, const double* const* x, const Store& store) {
  const index_t live = std::min(a.slice_height, a.rows - s * a.slice_height);
  for (index_t first = 0; first < live; first += chunk_rows)
    sell_chunk(a, s, first, std::min(chunk_rows, live - first), k, x, store);
}

// The products A x[j], j < k, of every row, handed to `store`.
template <class Store>
void sell_product(const SellView& a, int k, const double* const* x, const Store& store) {
  const index_t full_slices = a.rows / a.slice_height;  // slices without padding rows
#pragma omp parallel for schedule(static) if (worth_parallel(a.rows))
  for (index_t b = 0; b < a.slice_count; b += slice_block) {
    const index_t end = std::min(b + slice_block, a.slice_count);
    index_t s = b;
    if (std::min(end, full_slices) > b && sell_fixed_height(a, b, std::min(end, full_slices), k, x, store))
      s = std::min(end, full_slices);
    for (; s < end; ++s) sell_any_slice(a, s, k, x, store);
  }
}

}  // namespace

void spmv_sell_multi(const SellView& a, int k, const double* const* x, double* const* y) {
  sell_product(a, k, x, PlainStore{y});
}

void spmv_sell(const SellView& a, const double* x, double* y) { spmv_sell_multi(a, 1, &x, &y); }

void spmv_fused(const SellView& a, const double* x, const AxpbyEpilogue& e) {
  sell_product(a, 1, &x, EpilogueStore<AxpbyEpilogue>{e});
}

void spmv_fused(const SellView& a, const double* x, const JacobiEpilogue& e) {
  sell_product(a, 1, &x, EpilogueStore<JacobiEpilogue>{e});
}

namespace {

// Row by row in stored order (padding adds exact zeros); column c reads x[c % K][c / K], K a
// constant so that the division is a multiplication.
template <int K>
void sell_interleaved(const SellView& a, const double* const* x, double* y) {
#pragma omp parallel for schedule(static) if (worth_parallel(a.rows))
  for (index_t s = 0; s < a.slice_count; ++s) {
    const index_t begin = a.slice_ptr[s], height = a.slice_height;
    const index_t width = (a.slice_ptr[s + 1] - begin) / height;
    const index_t live = std::min(height, a.rows - s * height);
    for (index_t r = 0; r < live; ++r) {
      double sum = 0.0;
      for (index_t e = 0; e < width; ++e) {
        const index_t p = begin + e * height + r, c = a.col[p];
        sum += a.val[p] * x[c % K][c / K];
      }
      y[s * height + r] = sum;
    }
  }
}

}  // namespace

void spmv_sell_interleaved(const SellView& a, int k, const double* const* x, double* y) {
  switch (k) {
    case 1: return sell_interleaved<1>(a, x, y);
    case 2: return sell_interleaved<2>(a, x, y);
    case 3: return sell_interleaved<3>(a, x, y);
    case 4: return sell_interleaved<4>(a, x, y);
    default: throw Error("cpu::spmv_sell_interleaved: " + std::to_string(k) + " vectors requested, 1 to 4 supported");
  }
}

namespace {

// Each row's product, in stored order, handed to store(r, sum).
template <class Store>
void csr_product(const CsrView& a, const double* x, const Store& store) {
#pragma omp parallel for schedule(static) if (worth_parallel(a.rows))
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0.0;
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) sum += a.val[p] * x[a.col[p]];
    store(r, sum);
  }
}

}  // namespace

void spmv_csr(const CsrView& a, const double* x, double* y) {
  csr_product(a, x, [y](index_t r, double sum) { y[r] = sum; });
}

void spmv_fused(const CsrView& a, const double* x, const AxpbyEpilogue& e) { csr_product(a, x, e); }
void spmv_fused(const CsrView& a, const double* x, const JacobiEpilogue& e) { csr_product(a, x, e); }

}  // namespace miniapp::cpu
