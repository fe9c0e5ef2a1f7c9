#pragma once
// Assembly of the face-based operators without triplets (not a public interface).
#include <atomic>
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
// (csr_from_rows); where `entries` throws (a degenerate face), the first such face throws again after
// the parallel loop, as the loop over faces in order would have. The cells × faces operators are
// transposes of such matrices.
template <class Entries>
CsrMatrix face_rows(const mesh::Mesh& mesh, const Permutation* cells, Entries entries) {
  std::atomic<index_t> first_failed{mesh.face_count()};
  CsrMatrix a = csr_from_rows(mesh.face_count(), mesh.cell_count(), [&] {
    return [&, scratch = std::vector<std::pair<index_t, double>>()](index_t f, RowEntries& out) mutable {
      const std::size_t begin = out.size();
      try {
        entries(f, [&](index_t cell, double value) { out.push(cells ? cells->old_to_new[cell] : cell, value); });
      } catch (...) {  // an exception may not leave the parallel loop: the face is taken again below
        for (index_t seen = first_failed.load(); f < seen && !first_failed.compare_exchange_weak(seen, f);) {
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
  if (first_failed.load() < mesh.face_count()) entries(first_failed.load(), [](index_t, double) {});
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
