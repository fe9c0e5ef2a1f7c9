#include "operators/sparse/sell_matrix.hpp"

#include <algorithm>
#include <string>

namespace miniapp {
namespace {

// Column used by the padding of an empty row (or of a padding row past the end): the row index, kept
// inside the column range of a rectangular matrix so that the read stays in bounds.
index_t empty_row_column(index_t r, index_t cols) { return std::min(r, cols - 1); }

// slice_ptr from the widest row of each slice; checks the padded size fits the index type.
std::vector<index_t> slice_offsets(const CsrMatrix& a, index_t slice_height, index_t slices) {
  std::vector<index_t> slice_ptr(static_cast<std::size_t>(slices) + 1, 0);
  std::size_t total = 0;
  for (index_t s = 0; s < slices; ++s) {
    const index_t first = s * slice_height;
    const index_t last = std::min(first + slice_height, a.rows);
    index_t width = 0;
    for (index_t r = first; r < last; ++r) width = std::max(width, a.row_length(r));
    total += static_cast<std::size_t>(width) * static_cast<std::size_t>(slice_height);
    slice_ptr[s + 1] = checked_index(total, "to_sell: stored entries with padding");
  }
  return slice_ptr;
}

}  // namespace

SellMatrix to_sell(const CsrMatrix& a, index_t slice_height) {
  if (slice_height < 1) throw Error("to_sell: slice height " + std::to_string(slice_height) + " must be at least 1");
  SellMatrix s;
  s.rows = a.rows;
  s.cols = a.cols;
  s.slice_height = slice_height;
  s.nnz = a.nnz();
  const index_t slices = (a.rows + slice_height - 1) / slice_height;
  s.slice_ptr = slice_offsets(a, slice_height, slices);
  s.col.resize(static_cast<std::size_t>(s.slice_ptr.back()));
  s.val.assign(s.col.size(), 0.0);
  s.row_length.resize(static_cast<std::size_t>(a.rows));
  // Rows own disjoint positions: filled in parallel.
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < slices * slice_height; ++r) {
    const index_t width = s.slice_width(r / slice_height);
    const index_t length = r < a.rows ? a.row_length(r) : 0;
    if (r < a.rows) s.row_length[r] = length;
    const index_t begin = r < a.rows ? a.row_ptr[r] : 0;
    const index_t first = s.position(r, 0);  // entry k at first + k · slice_height
    for (index_t k = 0; k < length; ++k) {
      s.col[first + k * slice_height] = a.col[begin + k];
      s.val[first + k * slice_height] = a.val[begin + k];
    }
    const index_t pad_col = length > 0 ? a.col[begin + length - 1] : empty_row_column(r, a.cols);
    for (index_t k = length; k < width; ++k) s.col[first + k * slice_height] = pad_col;
  }
  return s;
}

CsrMatrix to_csr(const SellMatrix& a) {
  if (a.row_length.size() != static_cast<std::size_t>(a.rows))
    throw Error("to_csr: the sELL matrix has " + std::to_string(a.row_length.size()) + " row lengths for " +
                std::to_string(a.rows) + " rows (not built by to_sell)");
  CsrMatrix c;
  c.rows = a.rows;
  c.cols = a.cols;
  c.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  c.col.reserve(static_cast<std::size_t>(a.nnz));
  c.val.reserve(static_cast<std::size_t>(a.nnz));
  for (index_t r = 0; r < a.rows; ++r) {
    for (index_t k = 0; k < a.row_length[r]; ++k) {
      c.col.push_back(a.col[a.position(r, k)]);
      c.val.push_back(a.val[a.position(r, k)]);
    }
    c.row_ptr[r + 1] = c.nnz();
  }
  return c;
}

}  // namespace miniapp
