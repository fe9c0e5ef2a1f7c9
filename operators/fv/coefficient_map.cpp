// The coefficient maps E (thesis eq. 2.13-2.14): constant maps from a face field to the sELL values
// of an operator with the momentum pattern; E_C and E_D are made by this one builder.
#include "operators/fv/coefficient_map.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace miniapp::fv::detail {
namespace {

void require_layout_of(const CsrMatrix& pattern, const SellMatrix& layout, const char* caller) {
  bool same = layout.rows == pattern.rows && layout.cols == pattern.cols &&
              layout.row_length.size() == static_cast<std::size_t>(pattern.rows);
  for (index_t r = 0; same && r < pattern.rows; ++r) same = layout.row_length[r] == pattern.row_length(r);
  if (!same)
    throw Error(std::string(caller) + ": the sELL layout (" + std::to_string(layout.rows) + "x" +
                std::to_string(layout.cols) + ") is not a conversion of the momentum pattern (" +
                std::to_string(pattern.rows) + "x" + std::to_string(pattern.cols) + ", same row lengths)");
}

// ord_i(j): the rank of column j in the sorted row i of the pattern, or −1 when (i, j) is not in it.
index_t rank_in_row(const CsrMatrix& pattern, index_t i, index_t j) {
  const auto first = pattern.col.begin() + pattern.row_ptr[i], last = pattern.col.begin() + pattern.row_ptr[i + 1];
  const auto it = std::lower_bound(first, last, j);
  return it == last || *it != j ? -1 : static_cast<index_t>(it - first);
}

// Calls term(f, k, M_if B_fj) for every product of row i of M diag(φ) B, k = ord_i(j), in the order
// (entry of M, entry of B); returns the first column j missing from the pattern, or −1.
template <class Term>
index_t for_each_term(const CsrMatrix& m, const CsrMatrix& b, const CsrMatrix& pattern, index_t i, Term term) {
  for (index_t p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p) {
    const index_t f = m.col[p];
    for (index_t q = b.row_ptr[f]; q < b.row_ptr[f + 1]; ++q) {
      const index_t k = rank_in_row(pattern, i, b.col[q]);
      if (k < 0) return b.col[q];
      term(f, k, m.val[p] * b.val[q]);
    }
  }
  return -1;
}

}  // namespace

// The operator A(φ_s) = M diag(φ_s) B (M cells × faces, B faces × cells, cells in ops order) is linear
// in the face field φ_s: A_ij = Σ_f M_if φ_f B_fj. Its map E puts M_if B_fj at (position of (i, j) in
// the layout, f). Each row of E gets its faces from one row i of M, in M's (sorted) column order and
// at most once each (B's columns are unique), so E is built by counting then filling, in parallel over
// cells: the positions of row i are row i's alone.
CsrMatrix coefficient_map(const CsrMatrix& m, const CsrMatrix& b, const FlowOperators& ops, const SellMatrix& layout,
                          const char* caller) {
  const CsrMatrix& pattern = ops.momentum_pattern;
  require_layout_of(pattern, layout, caller);
  CsrMatrix e;
  e.rows = layout.stored_entries();
  e.cols = m.cols;
  e.row_ptr.assign(static_cast<std::size_t>(e.rows) + 1, 0);
  index_t first_missing = m.rows;
  const index_t h = layout.slice_height;
  // layout.position(i, k) = first + k · h, first taken once per row (no division per term).
#pragma omp parallel for reduction(min : first_missing)
  for (index_t i = 0; i < m.rows; ++i) {
    index_t* counts = e.row_ptr.data() + layout.position(i, 0) + 1;
    if (for_each_term(m, b, pattern, i, [&](index_t, index_t k, double) { ++counts[k * h]; }) >= 0)
      first_missing = std::min(first_missing, i);
  }
  if (first_missing < m.rows)
    throw Error(std::string(caller) + ": entry (" + std::to_string(first_missing) + ", " +
                std::to_string(for_each_term(m, b, pattern, first_missing, [](index_t, index_t, double) {})) +
                ") is missing from the momentum pattern");
  std::size_t entries = 0;
  for (index_t r = 0; r < e.rows; ++r) entries += static_cast<std::size_t>(e.row_ptr[r + 1]);
  checked_index(entries, std::string(caller) + ": entries");
  for (index_t r = 0; r < e.rows; ++r) e.row_ptr[r + 1] += e.row_ptr[r];
  e.col.resize(entries);
  e.val.resize(e.col.size());
  std::vector<index_t> next(e.row_ptr.begin(), e.row_ptr.end() - 1);
#pragma omp parallel for
  for (index_t i = 0; i < m.rows; ++i) {
    index_t* row_next = next.data() + layout.position(i, 0);
    for_each_term(m, b, pattern, i, [&](index_t f, index_t k, double v) {
      const index_t at = row_next[k * h]++;
      e.col[at] = f;
      e.val[at] = v;
    });
  }
  return e;
}


}  // namespace miniapp::fv::detail
