#pragma once
#include <iosfwd>
#include <optional>

#include "mesh/generators.hpp"
#include "mesh/mesh.hpp"
#include "parallel/local_numbering.hpp"

namespace miniapp::run {

// The cells this rank computes on (thesis §2.4). One rank: the whole mesh. Several: its METIS part
// and halo, cut out of the whole mesh, which every rank builds (O(global mesh) host memory per rank
// during set-up: the limit of this version; see docs/performance.md for the sizes it handles).
struct RankMesh {
  mesh::Mesh mesh;                                    // owned cells, then halo
  std::optional<mesh::Mesh> owned_piece;              // several ranks: owned cells only (the VTK piece)
  std::optional<parallel::LocalNumbering> numbering;  // several ranks
  long long global_cells = 0;
  std::vector<index_t> owned_global;  // the global index of each owned cell, in local order
};

// Partitions `global` over comm's ranks (nullptr or one rank: keeps it whole) and prints the
// partition statistics to `log` (collective). `lines` (the FFT path: per cell, its periodic line):
// every line whole on one rank (parallel::partition_lines), else METIS on the cell graph.
RankMesh partition_mesh(mesh::Mesh global, const parallel::Communicator* comm, std::ostream& log,
                        const std::vector<index_t>* lines = nullptr);

// Rank `rank` of `ranks` of a generated box split into slabs of whole z-layers (mesh.decomposition =
// "z-layers"): rank r owns layers [r·nz/P, (r+1)·nz/P) and generates only those and the layer on each
// side (mesh::make_box_layers), so set-up holds no global mesh and runs no METIS; the rows of owned
// cells equal the whole box's, as with partition_mesh. Not collective. Throws miniapp::Error when some
// rank would own no layer, or hold one layer twice (a periodic z with too few layers for P ranks).
RankMesh layered_rank_mesh(const mesh::BoxSpec& box, mesh::BoxCells cells, int ranks, int rank);

// layered_rank_mesh for this rank of comm, then prints the partition statistics to `log` (collective).
RankMesh generate_rank_mesh(const mesh::BoxSpec& box, mesh::BoxCells cells, const parallel::Communicator& comm,
                            std::ostream& log);

}  // namespace miniapp::run
