#pragma once
#include <iosfwd>
#include <optional>

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
// partition statistics to `log` (collective).
RankMesh partition_mesh(mesh::Mesh global, const parallel::Communicator* comm, std::ostream& log);

}  // namespace miniapp::run
