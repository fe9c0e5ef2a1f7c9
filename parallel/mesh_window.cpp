#include "parallel/mesh_window.hpp"

#include <algorithm>


namespace miniapp::parallel {

MeshWindow cut_window(LocalMeshCutter& whole, const CellGraph& graph, const std::vector<int>& part,
                      std::span<const index_t> owned) {
  std::vector<index_t> cells(owned.begin(), owned.end());
  for (const index_t c : owned)
    for (const index_t nb : graph.neighbours_of(c))
      if (part[nb] != part[c]) cells.push_back(nb);
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  MeshWindow w;
  w.mesh = whole(cells);
  w.mesh.cells_in_lattice_order = whole.global().cells_in_lattice_order;  // cells kept in the whole mesh's order
  w.part.reserve(cells.size());
  for (const index_t c : cells) w.part.push_back(part[c]);
  w.global_cell = std::move(cells);
  return w;
}

std::vector<std::vector<index_t>> cells_by_part(const std::vector<int>& part, int parts) {
  std::vector<std::vector<index_t>> cells(static_cast<std::size_t>(parts));
  for (std::size_t c = 0; c < part.size(); ++c)
    cells.at(static_cast<std::size_t>(part[c])).push_back(static_cast<index_t>(c));
  return cells;
}

}  // namespace miniapp::parallel
