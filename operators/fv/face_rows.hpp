#pragma once
// Assembly of the face-based operators without triplets (not a public interface).
#include <exception>
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
// (csr_from_rows); the miniapp::Error of a degenerate face is thrown after the loop, that of the
// first such face, as the loop over faces in order would have. The cells × faces operators are
// transposes of such matrices.
template <class Entries>
CsrMatrix face_rows(const mesh::Mesh& mesh, const Permutation* cells, Entries entries) {
  index_t first_failed = mesh.face_count();
  std::exception_ptr first_error;
  CsrMatrix a = csr_from_rows(mesh.face_count(), mesh.cell_count(), [&] {
    return [&, scratch = std::vector<std::pair<index_t, double>>()](index_t f, RowEntries& out) mutable {
      const std::size_t begin = out.size();
      try {
        entries(f, [&](index_t cell, double value) { out.push(cells ? cells->old_to_new[cell] : cell, value); });
      } catch (const Error&) {
#pragma omp critical(face_rows_error)
        if (f < first_failed) {
          first_failed = f;
          first_error = std::current_exception();
        }
        out.col.resize(begin);
        out.val.resize(begin);
        return;
      }
      const auto length = static_cast<index_t>(out.size() - begin);
      const index_t kept = sort_and_merge_entries(out.col.data() + begin, out.val.data() + begin, length, scratch);
      out.col.resize(begin + kept);
      out.val.resize(begin + kept);
    };
  });
  if (first_error) std::rethrow_exception(first_error);
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
