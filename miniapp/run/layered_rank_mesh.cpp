#include <string>

#include "miniapp/run/rank_mesh.hpp"
#include "parallel/local_mesh.hpp"
#include "parallel/partition_stats.hpp"

namespace miniapp::run {
namespace {

// Whole z-layers shared out as evenly as they go: rank r owns [first_layer(r), first_layer(r + 1)).
struct LayerShares {
  index_t layers;
  int ranks;

  index_t first_layer(int r) const { return static_cast<index_t>(static_cast<long long>(r) * layers / ranks); }
  int owner(index_t layer) const {
    int r = static_cast<int>(static_cast<long long>(layer) * ranks / layers);
    while (first_layer(r + 1) <= layer) ++r;
    while (first_layer(r) > layer) --r;
    return r;
  }
};

}  // namespace

RankMesh layered_rank_mesh(const mesh::BoxSpec& box, mesh::BoxCells cells, int ranks, int rank) {
  const index_t nz = box.cells[2];
  if (ranks > nz)
    throw Error("mesh.decomposition = \"z-layers\": " + std::to_string(ranks) + " ranks for " + std::to_string(nz) +
                " z-layers; every rank needs at least one layer (use \"metis\", or more layers)");
  const LayerShares shares{nz, ranks};
  const bool periodic = box.periodic[2];
  // The owned layers and one halo layer on each side that has a neighbour.
  index_t first = shares.first_layer(rank), end = shares.first_layer(rank + 1);
  if (periodic || first > 0) --first;
  if (periodic || end < nz) ++end;
  if (end - first > nz)
    throw Error("mesh.decomposition = \"z-layers\": rank " + std::to_string(rank) + " owns " +
                std::to_string(end - first - 2) + " of the " + std::to_string(nz) +
                " periodic z-layers, so its halo layers below and above would be the same layer; use fewer ranks, "
                "more layers or \"metis\"");
  mesh::BoxLayers window = mesh::make_box_layers(box, cells, first, end - first, std::string(parallel::cut_patch_name));

  // Partition of the window's cells by the owner of their layer, then the same numbering and rank
  // mesh as a METIS part gets.
  const index_t per_layer = window.mesh.cell_count() / (end - first);
  parallel::MeshWindow w{std::move(window.mesh), {}, std::move(window.global_cell)};
  w.part.resize(w.global_cell.size());
  for (std::size_t c = 0; c < w.part.size(); ++c) w.part[c] = shares.owner(w.global_cell[c] / per_layer);
  return rank_mesh_from_window(w, rank, static_cast<long long>(per_layer) * nz);
}

RankMesh generate_rank_mesh(const mesh::BoxSpec& box, mesh::BoxCells cells, const parallel::Communicator& comm,
                            std::ostream& log) {
  RankMesh r;
  comm.run_collectively([&] { r = layered_rank_mesh(box, cells, comm.size(), comm.rank()); });
  print(log, parallel::partition_stats(comm, *r.numbering));
  return r;
}

}  // namespace miniapp::run
