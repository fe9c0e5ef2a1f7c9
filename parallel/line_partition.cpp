// METIS on the graph of the periodic lines, the part of each line given to all its cells.
#include "parallel/line_partition.hpp"

#include <algorithm>
#include <string>

namespace miniapp::parallel {

CellGraph line_graph(const CellGraph& cells, const std::vector<index_t>& line_of_cell) {
  if (line_of_cell.size() != static_cast<std::size_t>(cells.cell_count()))
    throw Error("line partition: " + std::to_string(line_of_cell.size()) + " line numbers for " +
                std::to_string(cells.cell_count()) + " cells");
  const index_t lines = line_of_cell.empty() ? 0 : *std::max_element(line_of_cell.begin(), line_of_cell.end()) + 1;
  std::vector<std::vector<index_t>> adjacent(static_cast<std::size_t>(lines));
  std::vector<bool> used(static_cast<std::size_t>(lines), false);
  for (index_t c = 0; c < cells.cell_count(); ++c) {
    const index_t line = line_of_cell[c];
    if (line < 0) throw Error("line partition: cell " + std::to_string(c) + " has line number " + std::to_string(line));
    used[line] = true;
    for (index_t nb : cells.neighbours_of(c))
      if (line_of_cell[nb] != line) adjacent[line].push_back(line_of_cell[nb]);
  }
  CellGraph g;
  for (index_t line = 0; line < lines; ++line) {
    if (!used[line]) throw Error("line partition: no cell lies on line " + std::to_string(line));
    auto& list = adjacent[line];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    g.neighbours.insert(g.neighbours.end(), list.begin(), list.end());
    g.offsets.push_back(static_cast<index_t>(g.neighbours.size()));
  }
  return g;
}

std::vector<int> partition_lines(const CellGraph& cells, const std::vector<index_t>& line_of_cell, int parts) {
  const CellGraph lines = line_graph(cells, line_of_cell);
  if (lines.cell_count() < parts)
    throw Error("the FFT Poisson path keeps every periodic line on one rank: " + std::to_string(parts) +
                " ranks for " + std::to_string(lines.cell_count()) + " lines (cells per plane); run on at most " +
                std::to_string(lines.cell_count()) + " ranks, or use numerics.poisson = \"pcg\"");
  std::vector<index_t> weight(static_cast<std::size_t>(lines.cell_count()), 0);
  for (index_t line : line_of_cell) ++weight[line];
  const std::vector<int> line_part = partition_graph(lines, parts, &weight);
  std::vector<int> part(line_of_cell.size());
  for (std::size_t c = 0; c < part.size(); ++c) part[c] = line_part[line_of_cell[c]];
  return part;
}

std::vector<int> partition_lines(const Communicator& comm, const CellGraph& cells,
                                 const std::vector<index_t>& line_of_cell) {
  return partition_on_rank0(comm, [&] { return partition_lines(cells, line_of_cell, comm.size()); });
}

}  // namespace miniapp::parallel
