#pragma once
#include <vector>

#include "parallel/partition.hpp"

namespace miniapp::parallel {

// The P × 1 partition of the FFT path (thesis §4.5.3): the cells of a mesh extruded along a periodic
// z fall into periodic lines (columns, line_of_cell[c] ∈ [0, lines)); the transforms along z need
// every line whole on one rank, so the 2D mesh is partitioned, not the 3D one.

// The graph of the lines: one vertex per line, an edge between two lines when some cell of one is a
// face neighbour of some cell of the other. Throws when line_of_cell does not match the graph or
// leaves a line number in [0, max + 1) without a cell.
CellGraph line_graph(const CellGraph& cells, const std::vector<index_t>& line_of_cell);

// part[c] ∈ [0, parts) for every cell: METIS k-way on the line graph (weights: cells per line), every
// cell taking its line's part. Throws when there are fewer lines than parts.
std::vector<int> partition_lines(const CellGraph& cells, const std::vector<index_t>& line_of_cell, int parts);

// The same over comm's ranks (collective, as partition_cells: rank 0 partitions, every rank receives
// the result). Throws on every rank when there are fewer lines than ranks.
std::vector<int> partition_lines(const Communicator& comm, const CellGraph& cells,
                                 const std::vector<index_t>& line_of_cell);

}  // namespace miniapp::parallel
