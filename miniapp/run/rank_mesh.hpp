#pragma once
#include <iosfwd>
#include <optional>

#include "core/stage_profile.hpp"
#include "mesh/generators.hpp"
#include "mesh/mesh.hpp"
#include "parallel/local_numbering.hpp"
#include "parallel/mesh_window.hpp"

namespace miniapp::run {

// The cells this rank computes on (thesis §2.4). One rank: the whole mesh. Several: its METIS part
// and halo, or its z-layer slab; no rank but the mesh reader ever holds the whole mesh.
struct RankMesh {
  mesh::Mesh mesh;                                    // owned cells, then halo
  std::optional<mesh::Mesh> owned_piece;              // several ranks: owned cells only (the VTK piece)
  std::optional<parallel::LocalNumbering> numbering;  // several ranks
  long long global_cells = 0;
  std::vector<index_t> owned_global;  // the global index of each owned cell, in local order
};

// Shares `whole` out over comm's ranks (collective; nullptr or one rank: keeps it whole) and prints
// the partition statistics to `log`. On several ranks only rank 0 holds `whole` (read or generated
// there; the others pass an empty mesh): it partitions the cell graph with METIS (with `lines`, the
// FFT path's periodic line of each cell, every line whole on one rank), sends every rank its window
// (parallel::scatter_mesh) and frees the whole mesh; each rank then numbers and builds its own cells
// (rank_mesh_from_window). Every failure is raised on every rank. With `profile`, times these parts.
RankMesh distribute_mesh(mesh::Mesh whole, const parallel::Communicator* comm, std::ostream& log,
                         const std::vector<index_t>* lines = nullptr, StageProfile* profile = nullptr);

// Rank `rank`'s numbering, rank mesh and owned piece built from its window, with cells named by
// their index in the whole mesh of `global_cells` cells: the same as build_local_numbering and
// extract_local_mesh give on the whole mesh for the same partition. Not collective.
RankMesh rank_mesh_from_window(const parallel::MeshWindow& window, int rank, long long global_cells);

// Rank `rank` of `ranks` of a generated box split into slabs of whole z-layers (mesh.decomposition =
// "z-layers"): rank r owns layers [r·nz/P, (r+1)·nz/P) and generates only those and the layer on each
// side (mesh::make_box_layers), so set-up holds no global mesh and runs no METIS; the rows of owned
// cells equal the whole box's, as with distribute_mesh. Not collective. Throws miniapp::Error when some
// rank would own no layer, or hold one layer twice (a periodic z with too few layers for P ranks).
RankMesh layered_rank_mesh(const mesh::BoxSpec& box, mesh::BoxCells cells, int ranks, int rank);

// layered_rank_mesh for this rank of comm, then prints the partition statistics to `log` (collective).
RankMesh generate_rank_mesh(const mesh::BoxSpec& box, mesh::BoxCells cells, const parallel::Communicator& comm,
                            std::ostream& log);

}  // namespace miniapp::run
