#include <algorithm>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/kernels/spmv.hpp"

namespace miniapp::cpu {
namespace {

// Rows of a slice are processed in chunks of this many so that the accumulators live on the stack
// whatever the slice height.
constexpr index_t chunk_rows = 64;

// y[j][rows first..first+m) for rows of one slice (first is relative to the slice). Entry k of the
// chunk's rows is contiguous (column-major slice), so the innermost loop runs across rows and
// vectorises: unit-stride loads of val and col, a gather from x.
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

}  // namespace

void spmv_sell_multi(const SellView& a, int k, const double* const* x, double* const* y) {
#pragma omp parallel for schedule(static)
  for (index_t s = 0; s < a.slice_count; ++s) {
    // The last slice's padding rows past a.rows are not written: y has a.rows entries.
    const index_t live = std::min(a.slice_height, a.rows - s * a.slice_height);
    for (index_t first = 0; first < live; first += chunk_rows)
      sell_chunk(a, s, first, std::min(chunk_rows, live - first), k, x, y);
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
