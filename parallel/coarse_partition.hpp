#pragma once
// The pieces of a partition of a large cell graph made on a coarser graph: METIS k-way on every cell
// of a large mesh runs on the reader alone while the other ranks wait, and on the graph of aggregates
// of about six cells it does a fraction of that work; the parts, projected back to the cells, are then
// refined by greedy boundary moves (docs/multi-rank.md has the measured trade).
#include <vector>

#include "parallel/partition.hpp"

namespace miniapp::parallel {

// A graph with integer weights on vertices and on edges (edge weights in adjacency order).
struct WeightedGraph {
  std::vector<index_t> offsets{0};
  std::vector<index_t> neighbours;
  std::vector<index_t> vertex_weight;
  std::vector<index_t> edge_weight;

  index_t vertex_count() const { return static_cast<index_t>(offsets.size()) - 1; }
};

// Cells grouped into aggregates by two greedy passes in cell order (deterministic, O(edges)): a free
// cell whose neighbours are all free roots an aggregate of itself and up to 7 of them; then each
// cell left joins the neighbouring aggregate it shares most faces with (ties: the smaller aggregate)
// while that holds at most 12 cells, or else roots one with its free neighbours.
struct Aggregates {
  std::vector<index_t> of_cell;
  index_t count = 0;
};
Aggregates aggregate_cells(const CellGraph& graph);

// The graph of the aggregates: a vertex weighs the sum of its cells' weights (1 each without
// `cell_weights`), an edge the number of cell graph edges between its two aggregates.
WeightedGraph aggregate_graph(const CellGraph& graph, const std::vector<index_t>* cell_weights, const Aggregates& aggregates);

// Greedy k-way boundary refinement of `part` (at most 8 passes over the cells in order): a cell on a
// part boundary moves to the neighbouring part it has most edges to where that cuts fewer edges, or
// as many but towards a lighter part, and the part it joins stays within `imbalance` times the mean
// part weight.
void refine_partition(const CellGraph& graph, const std::vector<index_t>* cell_weights, std::vector<int>& part,
                      int parts, double imbalance);

}  // namespace miniapp::parallel
