// The coefficient maps E (thesis eq. 2.13-2.14): constant maps from a face field to the sELL values
// of an operator with the momentum pattern; E_C and E_D are made by this one builder.
#include "operators/fv/coefficient_map.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/parallel_exceptions.hpp"
#include "operators/sparse/csr_rows.hpp"

namespace miniapp::fv::detail {

void require_layout_of(const CsrMatrix& pattern, const SellLayout& layout, const char* caller) {
  bool same = layout.rows == pattern.rows && layout.cols == pattern.cols &&
              layout.row_length.size() == static_cast<std::size_t>(pattern.rows);
  for (index_t r = 0; same && r < pattern.rows; ++r) same = layout.row_length[r] == pattern.row_length(r);
  if (!same)
    throw Error(std::string(caller) + ": the sELL layout (" + std::to_string(layout.rows) + "x" +
                std::to_string(layout.cols) + ") is not a conversion of the momentum pattern (" +
                std::to_string(pattern.rows) + "x" + std::to_string(pattern.cols) + ", same row lengths)");
}

namespace {

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

[[noreturn]] void throw_missing(const CsrMatrix& m, const CsrMatrix& b, const CsrMatrix& pattern, index_t i,
                                const char* caller) {
  throw Error(std::string(caller) + ": entry (" + std::to_string(i) + ", " +
              std::to_string(for_each_term(m, b, pattern, i, [](index_t, index_t, double) {})) +
              ") is missing from the momentum pattern");
}

// A term of one slice's rows: its place in the slice (k · h + row within the slice), face and value.
struct SliceTerm {
  index_t place, face;
  double val;
};

// The terms of slice s of E: Σ over its rows i and the faces f of M's row i of the length of B's row
// f. Every term lands at a position of its row (or the build fails), so this is the slice's share of
// E's entries, known before any term is made.
std::size_t slice_terms(const CsrMatrix& m, const CsrMatrix& b, const SellLayout& layout, index_t s) {
  const index_t first_row = s * layout.slice_height, last_row = std::min(first_row + layout.slice_height, m.rows);
  std::size_t terms = 0;
  for (index_t p = m.row_ptr[first_row]; p < m.row_ptr[last_row]; ++p)
    terms += static_cast<std::size_t>(b.row_ptr[m.col[p] + 1] - b.row_ptr[m.col[p]]);
  return terms;
}

// The rows of slice s of E written from entry `base` of e.col and e.val in position order (each row's
// terms in the order of for_each_term), their ends to e.row_ptr[position + 1]; returns the first row of
// the slice with a column missing from the pattern, or m.rows.
index_t write_slice(const CsrMatrix& m, const CsrMatrix& b, const CsrMatrix& pattern, const SellLayout& layout,
                    index_t s, index_t base, std::vector<SliceTerm>& terms, std::vector<index_t>& start,
                    CsrMatrix& e) {
  const index_t h = layout.slice_height, first_row = s * h, last_row = std::min(first_row + h, m.rows);
  index_t missing = m.rows;
  terms.clear();
  for (index_t i = first_row; i < last_row; ++i)
    if (for_each_term(m, b, pattern, i, [&](index_t f, index_t k, double v) {
          terms.push_back({k * h + (i - first_row), f, v});
        }) >= 0)
      missing = std::min(missing, i);
  // A stable counting sort by place: each row's terms keep their order.
  const index_t places = layout.slice_ptr[s + 1] - layout.slice_ptr[s];
  start.assign(static_cast<std::size_t>(places) + 1, 0);
  for (const SliceTerm& t : terms) ++start[t.place + 1];
  for (index_t p = 0; p < places; ++p) start[p + 1] += start[p];
  index_t* row_end = e.row_ptr.data() + layout.slice_ptr[s] + 1;
  for (index_t p = 0; p < places; ++p) row_end[p] = base + start[p + 1];
  for (const SliceTerm& t : terms) {
    const index_t at = base + start[t.place]++;
    e.col[at] = t.face;
    e.val[at] = t.val;
  }
  return missing;
}

}  // namespace

// The operator A(φ_s) = M diag(φ_s) B (M cells × faces, B faces × cells, cells in the pattern's order) is linear
// in the face field φ_s: A_ij = Σ_f M_if φ_f B_fj. Its map E puts M_if B_fj at (position of (i, j) in
// the layout, f). Each row of E gets its faces from one row i of M, in M's (sorted) column order and
// at most once each (B's columns are unique). A slice's positions are contiguous and come from its
// rows alone, and its number of entries follows from the row lengths of M and B: so each slice is
// written straight into E at its offset, in parallel over slices, in one pass over the terms.
CsrMatrix coefficient_map(const CsrMatrix& m, const CsrMatrix& b, const CsrMatrix& pattern, const SellLayout& layout,
                          const char* caller) {
  require_layout_of(pattern, layout, caller);
  const index_t slices = layout.slice_count();
  std::vector<std::size_t> slice_offset(static_cast<std::size_t>(slices) + 1, 0);
#pragma omp parallel for schedule(static)
  for (index_t s = 0; s < slices; ++s) slice_offset[s + 1] = slice_terms(m, b, layout, s);
  for (index_t s = 0; s < slices; ++s) slice_offset[s + 1] += slice_offset[s];
  CsrMatrix e;
  e.rows = layout.stored_entries();
  e.cols = m.cols;
  checked_index(slice_offset.back(), std::string(caller) + ": entries");
  index_t first_missing = m.rows;
  ParallelExceptions errors;  // out of memory
#pragma omp parallel reduction(min : first_missing)
  {
    resize_entries_in_team(e, slice_offset.back(), errors);
    if (!errors.failed()) {
      std::vector<SliceTerm> terms;
      std::vector<index_t> start;
#pragma omp for schedule(static)
      for (index_t s = 0; s < slices; ++s)
        errors.guard([&] {  // the scratch vectors may grow
          first_missing = std::min(
              first_missing, write_slice(m, b, pattern, layout, s, static_cast<index_t>(slice_offset[s]), terms, start, e));
        });
    }
  }
  errors.rethrow();
  if (first_missing < m.rows) throw_missing(m, b, pattern, first_missing, caller);
  return e;
}

}  // namespace miniapp::fv::detail
