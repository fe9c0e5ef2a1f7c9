#pragma once
#include <functional>
#include <span>
#include <vector>

#include "mesh/mesh.hpp"
#include "parallel/communicator.hpp"

namespace miniapp::parallel {

// The dual graph of a mesh: cells are vertices, every interior face (periodic ones included) is an
// edge between its two cells. Neighbour lists are sorted and unique, without self loops (a periodic
// axis one cell thick glues a cell to itself).
struct CellGraph {
  std::vector<index_t> offsets{0};  // size cells + 1
  std::vector<index_t> neighbours;

  index_t cell_count() const { return static_cast<index_t>(offsets.size()) - 1; }
  std::span<const index_t> neighbours_of(index_t cell) const {
    return {neighbours.data() + offsets[cell], static_cast<std::size_t>(offsets[cell + 1] - offsets[cell])};
  }
};

CellGraph cell_graph(const mesh::Mesh& mesh);

// Load imbalance METIS is allowed (its default k-way ufactor 30): the heaviest part weighs at most
// this times the mean. METIS may exceed it slightly on very small graphs.
inline constexpr double metis_imbalance = 1.03;

// Graphs of this many cells or more are partitioned through the graph of their aggregates
// (coarse_partition.hpp): several times faster than METIS on every cell, for a few more faces cut.
inline constexpr index_t coarsened_partition_cells = index_t{1} << 20;

enum class GraphCoarsening { large_graphs, always, never };

// part[c] ∈ [0, parts): METIS_PartGraphKway minimising the edge cut, optional positive integer weights
// per cell (work per cell; nullptr = 1 each), fixed seed so the result is reproducible; on graphs of
// coarsened_partition_cells or more (`always`: any large enough for the coarse graph to hold several
// aggregates a part; `never`: none) on the graph of aggregates, then refined on the cells. parts = 1
// makes no METIS call. Throws for parts < 1, more parts than cells, wrong weights, a METIS failure
// code, or an empty part.
std::vector<int> partition_graph(const CellGraph& graph, int parts, const std::vector<index_t>* cell_weights = nullptr,
                                 GraphCoarsening coarsening = GraphCoarsening::large_graphs);

// The edges of `graph` whose two cells lie in different parts: the faces a partition cuts.
long long cut_edges(const CellGraph& graph, const std::vector<int>& part);

// Per part, the sum of its cells' weights (1 each without `cell_weights`).
std::vector<long long> part_weights(const std::vector<int>& part, int parts,
                                    const std::vector<index_t>* cell_weights = nullptr);

// The same with parts = comm.size(), collective: rank 0 partitions (the graph and weights matter on
// rank 0 only), every rank receives the whole part vector (4 bytes per global cell). A failure on
// rank 0 is raised on every rank.
std::vector<int> partition_cells(const Communicator& comm, const CellGraph& graph,
                                 const std::vector<index_t>* cell_weights = nullptr);

// Collective: rank 0 runs `partition` (a failure there is raised on every rank), every rank receives
// its part vector.
std::vector<int> partition_on_rank0(const Communicator& comm, const std::function<std::vector<int>()>& partition);

}  // namespace miniapp::parallel
