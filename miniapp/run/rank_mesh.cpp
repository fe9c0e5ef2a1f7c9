#include "miniapp/run/rank_mesh.hpp"

#include <numeric>
#include <ostream>

#include "parallel/line_partition.hpp"
#include "parallel/local_mesh.hpp"
#include "parallel/partition_stats.hpp"

namespace miniapp::run {

RankMesh partition_mesh(mesh::Mesh global, const parallel::Communicator* comm, std::ostream& log,
                        const std::vector<index_t>* lines) {
  RankMesh r;
  r.global_cells = global.cell_count();
  if (!comm || comm->size() == 1) {
    r.mesh = std::move(global);
    r.owned_global.resize(static_cast<std::size_t>(r.global_cells));
    std::iota(r.owned_global.begin(), r.owned_global.end(), 0);
    return r;
  }
  const parallel::CellGraph graph = parallel::cell_graph(global);
  const std::vector<int> part =
      lines ? parallel::partition_lines(*comm, graph, *lines) : parallel::partition_cells(*comm, graph);
  r.numbering = parallel::build_local_numbering(graph, part, comm->rank());
  const auto& cells = r.numbering->local_to_global;
  r.owned_global.assign(cells.begin(), cells.begin() + r.numbering->owned_count());
  r.mesh = parallel::extract_local_mesh(global, cells);
  r.owned_piece = parallel::extract_local_mesh(
      global, std::span<const index_t>(cells.data(), static_cast<std::size_t>(r.numbering->owned_count())));
  print(log, parallel::partition_stats(*comm, *r.numbering));
  return r;
}

}  // namespace miniapp::run
