#pragma once
#include <unordered_map>
#include <vector>

#include "operators/sparse/csr_matrix.hpp"
#include "parallel/partition.hpp"

namespace miniapp::parallel {

// The cells one rank sees, in the owned-then-halo layout of the thesis (§1.4.1, §2.4):
//   local [0, inner_count)                   inner cells: owned, every face neighbour owned too;
//   local [inner_count, owned_count())       interface cells: owned, some neighbour on another rank;
//   local [owned_count(), local_count())     halo cells: other ranks' cells adjacent to owned ones.
// Inside the inner and the interface group the rows follow row_grouping_rcm (grouped by row length,
// then reverse Cuthill-McKee), or row_grouping for a mesh in lattice order (grouped by row length,
// then by index), so the interface rows of every operator are one contiguous block.
// Halo cells are sorted by owning rank (then by cell index in the mesh the numbering was built on):
// what each neighbour sends is contiguous.
struct LocalNumbering {
  int rank = 0;
  index_t inner_count = 0, interface_count = 0, halo_count = 0;
  std::vector<index_t> local_to_global;  // size local_count()
  std::vector<int> halo_owner;           // size halo_count, non-decreasing
  std::unordered_map<index_t, index_t> global_to_local;

  index_t owned_count() const { return inner_count + interface_count; }
  index_t local_count() const { return owned_count() + halo_count; }
  // The local index of a global cell, or -1 when it is neither owned nor halo here.
  index_t to_local(index_t global) const {
    const auto it = global_to_local.find(global);
    return it == global_to_local.end() ? -1 : it->second;
  }
  // The distinct ranks owning halo cells, increasing.
  std::vector<int> neighbour_ranks() const;
  // Renames every cell c to global_of[c]: a numbering built on a rank's own piece of the mesh then
  // speaks of the whole mesh's cells (what the halo plan exchanges). global_of must be one-to-one.
  void relabel(const std::vector<index_t>& global_of);
};

// The numbering of `rank` for a partition `part` (part[c] = rank of cell c) of the whole cell graph.
// Not collective. Built on a rank's window (its cells and their face neighbours, numbered in the
// order of the whole mesh; parallel::MeshWindow) rather than the whole graph, it gives the same
// numbering in the window's indices (LocalNumbering::relabel). `lattice_order`: the graph's cells are
// in lattice order (mesh::Mesh::cells_in_lattice_order), kept inside each group. Throws when `rank`
// owns no cell or part has the wrong size.
LocalNumbering build_local_numbering(const CellGraph& graph, const std::vector<int>& part, int rank,
                                     bool lattice_order = false);

// The rank-local part of a global square operator: rows = owned cells in local order, columns = the
// local indices (owned, then halo), so y_owned = A_local · x_local once the halo of x is current.
// `global` is the whole host CSR (built redundantly on every rank: O(global non-zeros) memory each).
// Throws when an owned row couples to a cell outside owned + halo (a stencil wider than the faces).
CsrMatrix local_rows(const CsrMatrix& global, const LocalNumbering& numbering);

// x_local[i] = x_global[local_to_global[i]] for every owned and halo cell.
std::vector<double> local_values(const std::vector<double>& global, const LocalNumbering& numbering);

}  // namespace miniapp::parallel
