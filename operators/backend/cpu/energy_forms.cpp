#include <algorithm>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp::cpu {
namespace {

// Rows of a slice taken together, so that their accumulators live on the stack and each step over
// the slice's entries reads contiguous values and columns (the slice is column-major), as the SpMV does.
constexpr index_t block_rows = 64;

struct Chunk {
  index_t first_row, first_entry, rows, stride, width;  // stride: the slice height
};

struct FormInputs {
  int k;
  const double* const* values;
  const double* diagonal;
  const double* const* u;
  const double* const* u_old;
  const double* w;
};

// Row sums of a chunk at the midpoints x_d = ½(u_d + u_old_d), d < 3, the stored entries in order
// (padding adds exact zeros): values[0] split into its off-diagonal part (per component) and its
// diagonal, the further forms in full, and with a diagonal array its diagonal entry (summed: a padding
// entry in the diagonal's column holds 0). Each entry's column and values are loaded once for the
// three components; branch-free, so that the compiler keeps the row loop in vector registers.
struct ChunkSums {
  double off_diagonal[3][block_rows];
  double row[max_energy_forms][3][block_rows];  // v ≥ 1
  double diagonal0[block_rows], diagonal[block_rows];
};

template <bool HasDiagonal>
void chunk_sums(const SellView& a, const FormInputs& in, const Chunk& c, ChunkSums& s) {
  for (index_t r = 0; r < c.rows; ++r) {  // only the chunk's rows: a slice may be one row high
    for (int d = 0; d < 3; ++d) {
      s.off_diagonal[d][r] = 0.0;
      for (int v = 1; v < in.k; ++v) s.row[v][d][r] = 0.0;
    }
    s.diagonal0[r] = s.diagonal[r] = 0.0;
  }
  for (index_t e = 0; e < c.width; ++e) {
    const index_t at = c.first_entry + e * c.stride;
    for (index_t r = 0; r < c.rows; ++r) {
      const index_t col = a.col[at + r];
      const bool on_diagonal = col == c.first_row + r;
      const double v0 = in.values[0][at + r];
      s.diagonal0[r] += on_diagonal ? v0 : 0.0;
      if constexpr (HasDiagonal) s.diagonal[r] += on_diagonal ? in.diagonal[at + r] : 0.0;
      for (int d = 0; d < 3; ++d) {
        const double x = 0.5 * (in.u[d][col] + in.u_old[d][col]);
        s.off_diagonal[d][r] += on_diagonal ? 0.0 : v0 * x;
        for (int v = 1; v < in.k; ++v) s.row[v][d][r] += in.values[v][at + r] * x;
      }
    }
  }
}

// The chunk's energy terms, row by row (the same order whatever else is asked), then the forms' row
// sums (chunk_sums) times the rows' midpoints.
void add_chunk(const SellView& a, const FormInputs& in, const Chunk& c, double* sum) {
  for (index_t r = 0; r < c.rows; ++r)
    for (int d = 0; d < 3; ++d) sum[0] += in.w[c.first_row + r] * (in.u[d][c.first_row + r] * in.u[d][c.first_row + r]);
  if (in.k == 0) return;
  ChunkSums s;
  if (in.diagonal) chunk_sums<true>(a, in, c, s);
  else chunk_sums<false>(a, in, c, s);
  for (int d = 0; d < 3; ++d)
    for (index_t r = 0; r < c.rows; ++r) {
      const double mid = 0.5 * (in.u[d][c.first_row + r] + in.u_old[d][c.first_row + r]);
      sum[1] += mid * (s.off_diagonal[d][r] + s.diagonal0[r] * mid);
      for (int v = 1; v < in.k; ++v) sum[1 + v] += mid * s.row[v][d][r];
      if (in.diagonal) sum[1 + in.k] += mid * (s.off_diagonal[d][r] + s.diagonal[r] * mid);
    }
}

}  // namespace

void energy_forms(const SellView& a, int k, const double* const* values, const double* diagonal,
                  const double* const* u, const double* const* u_old, const double* w, index_t n, double* out) {
  double partials[(max_energy_forms + 1) * max_sum_chunks], sum[max_energy_forms + 1];
  const FormInputs in{k, values, diagonal, u, u_old, w};
  const index_t h = a.slice_height, slices = (n + h - 1) / h;
  // Whole slices per chunk of the ordered sums (the same result on any thread count).
  chunked_sums(slices, slices_per_chunk(n, h, slices), partials, sum, [&](index_t first_slice, index_t last_slice, double* acc) {
    for (index_t s = first_slice; s < last_slice; ++s) {
      const index_t width = (a.slice_ptr[s + 1] - a.slice_ptr[s]) / h;
      for (index_t first = 0; first < h && s * h + first < n; first += block_rows) {
        const index_t rows = std::min({block_rows, h - first, n - s * h - first});
        add_chunk(a, in, {s * h + first, a.slice_ptr[s] + first, rows, h, width}, acc);
      }
    }
  });
  for (int v = 0; v <= k + (diagonal ? 1 : 0); ++v) out[v] = sum[v];
}

}  // namespace miniapp::cpu
