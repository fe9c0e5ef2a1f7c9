#pragma once
// Assembly of the face-based operators without triplets (not a public interface).
#include <utility>
#include <vector>

#include "mesh/mesh.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "operators/sparse/reorder.hpp"

namespace miniapp::fv::detail {

// A faces × cells matrix built face by face: entries(f, push) calls push(cell, value) for the entries
// of row f, cells in mesh numbering, which are renumbered by `cells` when given. Each row is sorted
// with its duplicates summed in the order pushed (a face whose owner is its neighbour): the matrix
// csr_from_triplets makes of the same entries, in one sequential pass without a scatter. The cells ×
// faces operators are transposes of such matrices.
template <class Entries>
CsrMatrix face_rows(const mesh::Mesh& mesh, const Permutation* cells, Entries entries) {
  CsrMatrix a;
  a.rows = mesh.face_count();
  a.cols = mesh.cell_count();
  a.row_ptr.reserve(static_cast<std::size_t>(a.rows) + 1);
  a.col.reserve(2 * static_cast<std::size_t>(a.rows));
  a.val.reserve(2 * static_cast<std::size_t>(a.rows));
  std::vector<std::pair<index_t, double>> scratch;
  for (index_t f = 0; f < a.rows; ++f) {
    const std::size_t begin = a.col.size();
    entries(f, [&](index_t cell, double value) {
      a.col.push_back(cells ? cells->old_to_new[cell] : cell);
      a.val.push_back(value);
    });
    const auto length = static_cast<index_t>(a.col.size() - begin);
    const index_t kept = sort_and_merge_entries(a.col.data() + begin, a.val.data() + begin, length, scratch);
    a.col.resize(begin + kept);
    a.val.resize(begin + kept);
    a.row_ptr.push_back(checked_index(a.col.size(), "face_rows: non-zeros"));
  }
  return a;
}

// ½, ½ on interior faces; 1 at the owner of the boundary faces where include(face).
template <class Include>
CsrMatrix face_average(const mesh::Mesh& mesh, const Permutation& cells, Include include) {
  return face_rows(mesh, &cells, [&](index_t f, auto push) {
    if (!mesh.is_boundary(f)) {
      push(mesh.face_owner[f], 0.5);
      push(mesh.face_neighbour[f], 0.5);
    } else if (include(f)) {
      push(mesh.face_owner[f], 1.0);
    }
  });
}

}  // namespace miniapp::fv::detail
