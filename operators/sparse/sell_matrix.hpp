#pragma once
#include <span>
#include <vector>

#include "operators/sparse/csr_matrix.hpp"

namespace miniapp {

// Sliced ELLPACK (thesis §2.4): rows in slices of `slice_height`; slice s holds
// width_s = (slice_ptr[s+1] − slice_ptr[s]) / slice_height entries per row, stored column-major
// inside the slice: entry k of row r sits at slice_ptr[s] + k · slice_height + r % slice_height.
// Padding entries have value 0 and repeat the row's last valid column (or the row index for an empty
// row), so every read is in bounds and stays near the row's own data.
// The last slice is padded with empty rows up to slice_height.
// SellLayout is where the entries go, without them: what a map into a matrix's values needs (the
// coefficient maps E_C and E_D of the momentum operator, whose matrix lives in executor memory).
struct SellLayout {
  index_t rows = 0, cols = 0, slice_height = 32;
  std::vector<index_t> slice_ptr{0};
  // True entries per row (host only): tells padding from explicitly stored zeros in to_csr.
  std::vector<index_t> row_length;

  index_t slice_count() const { return static_cast<index_t>(slice_ptr.size()) - 1; }
  index_t stored_entries() const { return slice_ptr.back(); }
  index_t slice_width(index_t s) const { return (slice_ptr[s + 1] - slice_ptr[s]) / slice_height; }
  // Position in `val` of entry k (0-based, in sorted column order) of row r: thesis eq. 2.14.
  index_t position(index_t r, index_t k) const {
    return slice_ptr[r / slice_height] + k * slice_height + r % slice_height;
  }
};

// A layout with its entries: stored_entries() columns and values.
struct SellMatrix : SellLayout {
  index_t nnz = 0;  // true non-zeros, without padding
  UninitializedVector<index_t> col;  // resize(n) leaves entries unwritten: fill_sell writes them all
  UninitializedVector<double> val;
};

// Converts CSR (sorted columns) to sELL with slices of `slice_height` ≥ 1 rows; slice s is as wide as
// its longest row.
SellMatrix to_sell(const CsrMatrix& a, index_t slice_height);
// to_sell's layout of `a` alone, no entries written.
SellLayout sell_layout(const CsrMatrix& a, index_t slice_height);
// The two halves of to_sell, for a caller that stores the entries elsewhere (DeviceSell on the CPU
// backend: straight into executor memory): the slice offsets of `a` (slices + 1 entries; throws
// miniapp::Error for a slice height below 1 or a padded size past the index type), and a's entries with
// their padding written at those offsets into col and val (slice_ptr.back() entries each; col null:
// the values alone, for a matrix that reads another's columns of the same pattern).
std::vector<index_t> sell_slice_offsets(const CsrMatrix& a, index_t slice_height);
void fill_sell(const CsrMatrix& a, index_t slice_height, const std::vector<index_t>& slice_ptr, index_t* col,
               double* val);
// The entries to_sell stores for `a` (sell_slice_offsets(a, slice_height).back(), in 64 bits and
// without its arrays): what a memory estimate needs.
std::size_t sell_stored_entries(const CsrMatrix& a, index_t slice_height);
// The same for a matrix of rows of these lengths, not made yet.
std::size_t sell_stored_entries(std::span<const index_t> row_lengths, index_t slice_height);
// Executor bytes of `a` laid out as sELL (DeviceSell, or DeviceSellFloat with float values): the slice
// pointers, and a column index and a value per stored entry.
std::size_t sell_device_bytes(const CsrMatrix& a, index_t slice_height, bool float_values);
// The same for a matrix of rows of these lengths, not made yet.
std::size_t sell_device_bytes(std::span<const index_t> row_lengths, index_t slice_height, bool float_values);
// The inverse of to_sell: padding dropped, explicitly stored zeros kept.
CsrMatrix to_csr(const SellMatrix& a);

}  // namespace miniapp
