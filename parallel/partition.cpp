#include "parallel/partition.hpp"

#include <algorithm>
#include <string>

#include <metis.h>

#include "parallel/coarse_partition.hpp"

namespace miniapp::parallel {

static_assert(sizeof(idx_t) == sizeof(index_t), "METIS must be built with 32-bit indices (IDXTYPEWIDTH 32)");

CellGraph cell_graph(const mesh::Mesh& mesh) {
  const index_t cells = mesh.cell_count();
  std::vector<index_t> degree(static_cast<std::size_t>(cells) + 1, 0);
  for (index_t f = 0; f < mesh.interior_face_count; ++f) {
    ++degree[mesh.face_owner[f] + 1];
    ++degree[mesh.face_neighbour[f] + 1];
  }
  CellGraph g;
  g.offsets.resize(static_cast<std::size_t>(cells) + 1);
  g.offsets[0] = 0;
  for (index_t c = 0; c < cells; ++c) g.offsets[c + 1] = g.offsets[c] + degree[c + 1];
  std::vector<index_t> fill(g.offsets.begin(), g.offsets.end() - 1);
  std::vector<index_t> raw(static_cast<std::size_t>(g.offsets[cells]));
  for (index_t f = 0; f < mesh.interior_face_count; ++f) {
    const index_t a = mesh.face_owner[f], b = mesh.face_neighbour[f];
    raw[fill[a]++] = b;
    raw[fill[b]++] = a;
  }
  // Sort each list, drop duplicates (two faces shared by the same pair) and self loops; compact.
  g.neighbours.reserve(raw.size());
  index_t begin = 0;
  for (index_t c = 0; c < cells; ++c) {
    const index_t end = g.offsets[c + 1];
    std::sort(raw.begin() + begin, raw.begin() + end);
    for (index_t p = begin; p < end; ++p)
      if (raw[p] != c && (p == begin || raw[p] != raw[p - 1])) g.neighbours.push_back(raw[p]);
    g.offsets[c + 1] = static_cast<index_t>(g.neighbours.size());
    begin = end;
  }
  return g;
}

namespace {

std::string metis_reason(int code) {
  switch (code) {
    case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT (the graph or options are invalid)";
    case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY (out of memory)";
    default: return "METIS_ERROR (code " + std::to_string(code) + ")";
  }
}

void check_arguments(const CellGraph& graph, int parts, const std::vector<index_t>* cell_weights) {
  const index_t cells = graph.cell_count();
  if (parts < 1) throw Error("partition: " + std::to_string(parts) + " parts requested, at least 1 is needed");
  if (parts > cells)
    throw Error("partition: " + std::to_string(parts) + " ranks for a mesh of " + std::to_string(cells) +
                " cells; every rank needs at least one cell, so run on at most " + std::to_string(cells) + " ranks");
  if (!cell_weights) return;
  if (cell_weights->size() != static_cast<std::size_t>(cells))
    throw Error("partition: " + std::to_string(cell_weights->size()) + " cell weights for " + std::to_string(cells) +
                " cells");
  const auto bad = std::find_if(cell_weights->begin(), cell_weights->end(), [](index_t w) { return w <= 0; });
  if (bad != cell_weights->end())
    throw Error("partition: the weight of cell " + std::to_string(bad - cell_weights->begin()) + " is " +
                std::to_string(*bad) + ", weights must be positive");
}

// METIS_PartGraphKway of a graph of `vertices` (weights: nullptr = 1 each) into `parts`, with a fixed
// seed so that the result is reproducible.
std::vector<int> metis_kway(index_t vertices, const std::vector<index_t>& offsets, const std::vector<index_t>& neighbours,
                            const std::vector<index_t>* vertex_weights, const std::vector<index_t>* edge_weights,
                            int parts) {
  // METIS takes non-const pointers; it does not modify the graph, but copies keep the contract plain.
  std::vector<idx_t> xadj(offsets.begin(), offsets.end()), adjncy(neighbours.begin(), neighbours.end()), vwgt, adjwgt;
  if (vertex_weights) vwgt.assign(vertex_weights->begin(), vertex_weights->end());
  if (edge_weights) adjwgt.assign(edge_weights->begin(), edge_weights->end());
  std::vector<idx_t> where(static_cast<std::size_t>(vertices));
  idx_t nvtxs = vertices, ncon = 1, nparts = parts, edgecut = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  options[METIS_OPTION_SEED] = 1;  // reproducible partitions, run to run
  const int code = METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), vwgt.empty() ? nullptr : vwgt.data(),
                                       nullptr, adjwgt.empty() ? nullptr : adjwgt.data(), &nparts, nullptr, nullptr,
                                       options, &edgecut, where.data());
  if (code != METIS_OK)
    throw Error("partition: METIS_PartGraphKway failed on a graph of " + std::to_string(vertices) + " vertices into " +
                std::to_string(parts) + " parts: " + metis_reason(code));
  return {where.begin(), where.end()};
}

// METIS on the graph of aggregates of about six cells, the parts projected back to the cells and
// refined (coarse_partition.hpp).
std::vector<int> partition_aggregates(const CellGraph& graph, int parts, const std::vector<index_t>* cell_weights) {
  const Aggregates aggregates = aggregate_cells(graph);
  std::vector<int> part;
  {
    const WeightedGraph coarse = aggregate_graph(graph, cell_weights, aggregates);
    part = metis_kway(coarse.vertex_count(), coarse.offsets, coarse.neighbours, &coarse.vertex_weight,
                      &coarse.edge_weight, parts);
  }
  std::vector<int> cell_part(aggregates.of_cell.size());
  for (std::size_t c = 0; c < cell_part.size(); ++c) cell_part[c] = part[static_cast<std::size_t>(aggregates.of_cell[c])];
  refine_partition(graph, cell_weights, cell_part, parts, metis_imbalance);
  return cell_part;
}

}  // namespace

std::vector<int> partition_graph(const CellGraph& graph, int parts, const std::vector<index_t>* cell_weights,
                                 GraphCoarsening coarsening) {
  check_arguments(graph, parts, cell_weights);
  const index_t cells = graph.cell_count();
  if (parts == 1) return std::vector<int>(static_cast<std::size_t>(cells), 0);
  const bool coarsen = coarsening == GraphCoarsening::always ||
                       (coarsening == GraphCoarsening::large_graphs && cells >= coarsened_partition_cells);
  // A coarse graph of about a sixth of the cells still needs several vertices a part.
  std::vector<int> part = coarsen && cells >= 64 * static_cast<index_t>(parts)
                              ? partition_aggregates(graph, parts, cell_weights)
                              : metis_kway(cells, graph.offsets, graph.neighbours, cell_weights, nullptr, parts);
  const std::vector<long long> size = part_weights(part, parts);
  for (int p = 0; p < parts; ++p)
    if (size[p] == 0)
      throw Error("partition: part " + std::to_string(p) + " of " + std::to_string(parts) +
                  " came out empty on a graph of " + std::to_string(cells) + " cells; run on fewer ranks");
  return part;
}

std::vector<long long> part_weights(const std::vector<int>& part, int parts, const std::vector<index_t>* cell_weights) {
  std::vector<long long> weight(static_cast<std::size_t>(parts), 0);
  for (std::size_t c = 0; c < part.size(); ++c) weight[part[c]] += cell_weights ? (*cell_weights)[c] : 1;
  return weight;
}

long long cut_edges(const CellGraph& graph, const std::vector<int>& part) {
  long long ends = 0;  // each cut edge is counted from both of its cells
  for (index_t c = 0; c < graph.cell_count(); ++c)
    for (const index_t nb : graph.neighbours_of(c)) ends += part[c] != part[nb];
  return ends / 2;
}

std::vector<int> partition_on_rank0(const Communicator& comm, const std::function<std::vector<int>()>& partition) {
  std::vector<int> part;
  comm.run_collectively([&] {
    if (comm.rank() == 0) part = partition();
  });
  int cells = static_cast<int>(part.size());
  comm.broadcast(std::span<int>(&cells, 1), 0);
  part.resize(static_cast<std::size_t>(cells));
  comm.broadcast(std::span<int>(part), 0);
  return part;
}

std::vector<int> partition_cells(const Communicator& comm, const CellGraph& graph,
                                 const std::vector<index_t>* cell_weights) {
  return partition_on_rank0(comm, [&] { return partition_graph(graph, comm.size(), cell_weights); });
}

}  // namespace miniapp::parallel
