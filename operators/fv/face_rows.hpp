#pragma once
// Assembly of the face-based operators without triplets (not a public interface).
#include <utility>
#include <vector>

#include "mesh/mesh.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "operators/sparse/csr_rows.hpp"
#include "operators/sparse/reorder.hpp"

namespace miniapp::fv::detail {

// A faces × cells matrix built face by face: entries(f, push) calls push(cell, value) for the entries
// of row f, cells in mesh numbering, which are renumbered by `cells` when given. Each row is sorted
// with its duplicates summed in the order pushed (a face whose owner is its neighbour): the matrix
// csr_from_triplets makes of the same entries, without a scatter. Rows are built in parallel
// (csr_from_rows, which throws the error of the first degenerate face, as a loop over faces in order
// would have). The cells × faces operators are transposes of such matrices.
template <class Entries>
CsrMatrix face_rows(const mesh::Mesh& mesh, const Permutation* cells, Entries entries) {
  return csr_from_rows(mesh.face_count(), mesh.cell_count(), [&] {
    return [&, scratch = std::vector<std::pair<index_t, double>>()](index_t f, RowEntries& out) mutable {
      const std::size_t begin = out.size();
      entries(f, [&](index_t cell, double value) { out.push(cells ? cells->old_to_new[cell] : cell, value); });
      const auto length = static_cast<index_t>(out.size() - begin);
      const index_t kept = sort_and_merge_entries(out.col.data() + begin, out.val.data() + begin, length, scratch);
      out.col.resize(begin + kept);
      out.val.resize(begin + kept);
    };
  });
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
