#include "operators/sparse/sell_matrix.hpp"

#include <algorithm>
#include <string>

namespace miniapp {
namespace {

// Column used by the padding of an empty row (or of a padding row past the end): the row index, kept
// inside the column range of a rectangular matrix so that the read stays in bounds.
index_t empty_row_column(index_t r, index_t cols) { return std::min(r, cols - 1); }

void require_slice_height(index_t slice_height) {
  if (slice_height < 1) throw Error("to_sell: slice height " + std::to_string(slice_height) + " must be at least 1");
}

// `length(r)`: the length of row r of `rows`.
template <class Length>
index_t longest_row_of_slice(index_t rows, Length length, index_t s, index_t slice_height) {
  const index_t first = s * slice_height;
  const index_t last = std::min(first + slice_height, rows);
  index_t longest = 0;
  for (index_t r = first; r < last; ++r) longest = std::max(longest, length(r));
  return longest;
}

index_t longest_row_of_slice(const CsrMatrix& a, index_t s, index_t slice_height) {
  return longest_row_of_slice(a.rows, [&](index_t r) { return a.row_length(r); }, s, slice_height);
}

template <class Length>
std::size_t stored_entries(index_t rows, Length length, index_t slice_height) {
  require_slice_height(slice_height);
  const index_t slices = (rows + slice_height - 1) / slice_height;
  std::size_t entries = 0;
#pragma omp parallel for schedule(static) reduction(+ : entries)
  for (index_t s = 0; s < slices; ++s)
    entries += static_cast<std::size_t>(longest_row_of_slice(rows, length, s, slice_height)) *
               static_cast<std::size_t>(slice_height);
  return entries;
}

std::size_t device_bytes(index_t rows, std::size_t stored_entries, index_t slice_height, bool float_values) {
  const auto slices = static_cast<std::size_t>((rows + slice_height - 1) / slice_height);
  const std::size_t entry_bytes = sizeof(index_t) + (float_values ? sizeof(float) : sizeof(double));
  return sizeof(index_t) * (slices + 1) + entry_bytes * stored_entries;
}

}  // namespace

// From the widest row of each slice (found in parallel); checks the padded size fits the index type.
std::vector<index_t> sell_slice_offsets(const CsrMatrix& a, index_t slice_height) {
  require_slice_height(slice_height);
  const index_t slices = (a.rows + slice_height - 1) / slice_height;
  std::vector<index_t> width(static_cast<std::size_t>(slices), 0);
#pragma omp parallel for schedule(static)
  for (index_t s = 0; s < slices; ++s) width[s] = longest_row_of_slice(a, s, slice_height);
  std::vector<index_t> slice_ptr(static_cast<std::size_t>(slices) + 1, 0);
  std::size_t total = 0;
  for (index_t s = 0; s < slices; ++s) {
    total += static_cast<std::size_t>(width[s]) * static_cast<std::size_t>(slice_height);
    slice_ptr[s + 1] = checked_index(total, "to_sell: stored entries with padding");
  }
  return slice_ptr;
}

std::size_t sell_stored_entries(const CsrMatrix& a, index_t slice_height) {
  return stored_entries(a.rows, [&](index_t r) { return a.row_length(r); }, slice_height);
}

std::size_t sell_device_bytes(const CsrMatrix& a, index_t slice_height, bool float_values) {
  return device_bytes(a.rows, sell_stored_entries(a, slice_height), slice_height, float_values);
}

std::size_t sell_stored_entries(std::span<const index_t> row_lengths, index_t slice_height) {
  const index_t rows = checked_index(row_lengths.size(), "sell_stored_entries: rows");
  return stored_entries(rows, [&](index_t r) { return row_lengths[r]; }, slice_height);
}

std::size_t sell_device_bytes(std::span<const index_t> row_lengths, index_t slice_height, bool float_values) {
  return device_bytes(static_cast<index_t>(row_lengths.size()), sell_stored_entries(row_lengths, slice_height),
                      slice_height, float_values);
}

// Rows own disjoint positions: filled in parallel, padding written here rather than by a pass before.
void fill_sell(const CsrMatrix& a, index_t slice_height, const std::vector<index_t>& slice_ptr, index_t* col,
               double* val) {
  const index_t slices = static_cast<index_t>(slice_ptr.size()) - 1;
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < slices * slice_height; ++r) {
    const index_t slice = r / slice_height;
    const index_t width = (slice_ptr[slice + 1] - slice_ptr[slice]) / slice_height;
    const index_t length = r < a.rows ? a.row_length(r) : 0;
    const index_t begin = r < a.rows ? a.row_ptr[r] : 0;
    const index_t first = slice_ptr[slice] + r % slice_height;  // entry k at first + k · slice_height
    for (index_t k = 0; k < length; ++k) val[first + k * slice_height] = a.val[begin + k];
    for (index_t k = length; k < width; ++k) val[first + k * slice_height] = 0.0;
    if (!col) continue;
    for (index_t k = 0; k < length; ++k) col[first + k * slice_height] = a.col[begin + k];
    const index_t pad_col = length > 0 ? a.col[begin + length - 1] : empty_row_column(r, a.cols);
    for (index_t k = length; k < width; ++k) col[first + k * slice_height] = pad_col;
  }
}

SellLayout sell_layout(const CsrMatrix& a, index_t slice_height) {
  SellLayout s;
  s.rows = a.rows;
  s.cols = a.cols;
  s.slice_height = slice_height;
  s.slice_ptr = sell_slice_offsets(a, slice_height);
  s.row_length.resize(static_cast<std::size_t>(a.rows));
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < a.rows; ++r) s.row_length[r] = a.row_length(r);
  return s;
}

SellMatrix to_sell(const CsrMatrix& a, index_t slice_height) {
  SellMatrix s;
  static_cast<SellLayout&>(s) = sell_layout(a, slice_height);
  s.nnz = a.nnz();
  s.col.resize(static_cast<std::size_t>(s.stored_entries()));
  s.val.resize(s.col.size());
  fill_sell(a, slice_height, s.slice_ptr, s.col.data(), s.val.data());
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
