#pragma once
#include <span>
#include <vector>

#include "mesh/mesh.hpp"
#include "parallel/local_mesh.hpp"
#include "parallel/partition.hpp"

namespace miniapp::parallel {

// The cells a rank needs to number and build its part of a mesh by itself: the cells it owns and their
// face neighbours, cut out of the whole mesh (extract_local_mesh, closed by the cut patch), with the
// rank owning each. A METIS part sent by the mesh reader and a generated z-layer slab are both one.
struct MeshWindow {
  mesh::Mesh mesh;
  std::vector<int> part;             // per cell of `mesh`: the rank that owns it
  std::vector<index_t> global_cell;  // per cell of `mesh`: its index in the whole mesh
};

// The window of the cells `owned` (one rank's, by increasing index) of the mesh `whole` cuts, partitioned by `part`:
// those cells and their neighbours in `graph` (the whole mesh's cell graph), by increasing index.
// Ordered so, the window numbers owned and halo cells in the order of the whole mesh, so that
// build_local_numbering and extract_local_mesh give the same numbering and rank mesh on it as on the
// whole mesh (after LocalNumbering::relabel).
MeshWindow cut_window(LocalMeshCutter& whole, const CellGraph& graph, const std::vector<int>& part,
                      std::span<const index_t> owned);

// The cells of each part, by increasing index: owned[p] for p in [0, parts).
std::vector<std::vector<index_t>> cells_by_part(const std::vector<int>& part, int parts);

}  // namespace miniapp::parallel
