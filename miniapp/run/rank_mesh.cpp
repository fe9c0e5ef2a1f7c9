#include "miniapp/run/rank_mesh.hpp"

#include <numeric>
#include <ostream>

#include "parallel/local_mesh.hpp"
#include "parallel/mesh_scatter.hpp"
#include "parallel/partition_stats.hpp"

namespace miniapp::run {

RankMesh rank_mesh_from_window(const parallel::MeshWindow& window, int rank, long long global_cells) {
  RankMesh r;
  r.global_cells = global_cells;
  r.numbering = parallel::build_local_numbering(parallel::cell_graph(window.mesh), window.part, rank,
                                               window.mesh.cells_in_lattice_order);
  const auto& held = r.numbering->local_to_global;
  const std::span<const index_t> owned(held.data(), static_cast<std::size_t>(r.numbering->owned_count()));
  parallel::LocalMeshCutter cut(window.mesh);  // its maps made once for both pieces
  r.mesh = cut(held);
  r.owned_piece = cut(owned);
  r.numbering->relabel(window.global_cell);
  r.owned_global.assign(held.begin(), held.begin() + r.numbering->owned_count());
  return r;
}

RankMesh distribute_mesh(mesh::Mesh whole, const parallel::Communicator* comm, std::ostream& log,
                         const std::vector<index_t>* lines, StageProfile* profile) {
  RankMesh r;
  if (!comm || comm->size() == 1) {
    r.global_cells = whole.cell_count();
    r.mesh = std::move(whole);
    r.owned_global.resize(static_cast<std::size_t>(r.global_cells));
    std::iota(r.owned_global.begin(), r.owned_global.end(), 0);
    return r;
  }
  double cells = whole.cell_count();
  comm->broadcast(std::span<double>(&cells, 1), 0);
  const parallel::MeshWindow window = parallel::scatter_mesh(*comm, std::move(whole), lines, profile);
  comm->run_collectively([&] {
    StageProfile::Part t(profile, "rank mesh");
    r = rank_mesh_from_window(window, comm->rank(), static_cast<long long>(cells));
  });
  StageProfile::Part t(profile, "partition statistics");
  print(log, parallel::partition_stats(*comm, *r.numbering));
  return r;
}

}  // namespace miniapp::run
