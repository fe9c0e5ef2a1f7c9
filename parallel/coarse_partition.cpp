#include "parallel/coarse_partition.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace miniapp::parallel {
namespace {

constexpr index_t root_cap = 8;   // an aggregate's cells when a free cell roots it
constexpr index_t join_cap = 12;  // the most an aggregate holds once the cells left have joined

index_t weight_of(const std::vector<index_t>* cell_weights, index_t cell) {
  return cell_weights ? (*cell_weights)[static_cast<std::size_t>(cell)] : 1;
}

// Roots aggregate `id` at `cell` with its free neighbours, up to root_cap cells; returns its size.
index_t root_aggregate(const CellGraph& graph, index_t cell, index_t id, std::vector<index_t>& of_cell) {
  of_cell[cell] = id;
  index_t size = 1;
  for (const index_t nb : graph.neighbours_of(cell))
    if (of_cell[nb] < 0 && size < root_cap) {
      of_cell[nb] = id;
      ++size;
    }
  return size;
}

// A small list of (key, count) pairs: a cell has a few neighbours, so a linear search beats a map.
void count_key(std::vector<std::pair<index_t, index_t>>& counts, index_t key) {
  const auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == key; });
  if (it == counts.end()) counts.emplace_back(key, 1);
  else ++it->second;
}

}  // namespace

Aggregates aggregate_cells(const CellGraph& graph) {
  const index_t cells = graph.cell_count();
  Aggregates a;
  a.of_cell.assign(static_cast<std::size_t>(cells), -1);
  std::vector<index_t> size;
  for (index_t c = 0; c < cells; ++c) {
    if (a.of_cell[c] >= 0) continue;
    const auto nbs = graph.neighbours_of(c);
    if (std::any_of(nbs.begin(), nbs.end(), [&](index_t nb) { return a.of_cell[nb] >= 0; })) continue;
    size.push_back(root_aggregate(graph, c, a.count++, a.of_cell));
  }
  std::vector<std::pair<index_t, index_t>> shared;  // (aggregate, faces shared with it)
  for (index_t c = 0; c < cells; ++c) {
    if (a.of_cell[c] >= 0) continue;
    shared.clear();
    for (const index_t nb : graph.neighbours_of(c))
      if (a.of_cell[nb] >= 0) count_key(shared, a.of_cell[nb]);
    index_t best = -1, best_faces = 0;
    for (const auto& [agg, faces] : shared)
      if (size[agg] < join_cap && (faces > best_faces || (faces == best_faces && size[agg] < size[best]))) {
        best = agg;
        best_faces = faces;
      }
    if (best >= 0) {
      a.of_cell[c] = best;
      ++size[best];
    } else {
      size.push_back(root_aggregate(graph, c, a.count++, a.of_cell));
    }
  }
  return a;
}

WeightedGraph aggregate_graph(const CellGraph& graph, const std::vector<index_t>* cell_weights, const Aggregates& aggregates) {
  const index_t cells = graph.cell_count(), count = aggregates.count;
  // The cells of each aggregate, in cell order (a counting sort).
  std::vector<index_t> start(static_cast<std::size_t>(count) + 1, 0), members(static_cast<std::size_t>(cells));
  for (index_t c = 0; c < cells; ++c) ++start[aggregates.of_cell[c] + 1];
  for (index_t g = 0; g < count; ++g) start[g + 1] += start[g];
  std::vector<index_t> next(start.begin(), start.end() - 1);
  for (index_t c = 0; c < cells; ++c) members[next[aggregates.of_cell[c]]++] = c;

  WeightedGraph w;
  w.offsets.assign(static_cast<std::size_t>(count) + 1, 0);
  w.vertex_weight.assign(static_cast<std::size_t>(count), 0);
  std::vector<index_t> slot(static_cast<std::size_t>(count), -1);  // where edge (g, h) is, once g's row holds it
  for (index_t g = 0; g < count; ++g) {
    const auto row_begin = static_cast<index_t>(w.neighbours.size());
    for (index_t m = start[g]; m < start[g + 1]; ++m) {
      const index_t c = members[m];
      w.vertex_weight[g] += weight_of(cell_weights, c);
      for (const index_t nb : graph.neighbours_of(c)) {
        const index_t h = aggregates.of_cell[nb];
        if (h == g) continue;
        if (slot[h] >= row_begin) {
          ++w.edge_weight[slot[h]];
        } else {
          slot[h] = static_cast<index_t>(w.neighbours.size());
          w.neighbours.push_back(h);
          w.edge_weight.push_back(1);
        }
      }
    }
    w.offsets[g + 1] = static_cast<index_t>(w.neighbours.size());
  }
  return w;
}

void refine_partition(const CellGraph& graph, const std::vector<index_t>* cell_weights, std::vector<int>& part,
                      int parts, double imbalance) {
  const index_t cells = graph.cell_count();
  std::vector<long long> part_weight = part_weights(part, parts, cell_weights);
  const long long total = std::accumulate(part_weight.begin(), part_weight.end(), 0LL);
  const auto heaviest = static_cast<long long>(imbalance * static_cast<double>(total) / parts);
  std::vector<std::pair<index_t, index_t>> links;  // (neighbouring part, edges to it)
  constexpr int passes = 8;
  for (int pass = 0; pass < passes; ++pass) {
    long long moves = 0;
    for (index_t c = 0; c < cells; ++c) {
      const int from = part[c];
      links.clear();
      index_t internal = 0;
      for (const index_t nb : graph.neighbours_of(c)) {
        if (part[nb] == from) ++internal;
        else count_key(links, part[nb]);
      }
      if (links.empty()) continue;  // inside its part
      const long long w = weight_of(cell_weights, c);
      int best = -1;
      index_t best_gain = 0;
      for (const auto& [to, edges] : links) {
        if (part_weight[to] + w > heaviest) continue;
        const index_t gain = edges - internal;
        const bool worth = gain > 0 || (gain == 0 && part_weight[to] + w < part_weight[from]);
        if (worth && (best < 0 || gain > best_gain || (gain == best_gain && part_weight[to] < part_weight[best]))) {
          best = static_cast<int>(to);
          best_gain = gain;
        }
      }
      if (best < 0) continue;
      part[c] = best;
      part_weight[from] -= w;
      part_weight[best] += w;
      ++moves;
    }
    if (moves == 0) break;
  }
}

}  // namespace miniapp::parallel
