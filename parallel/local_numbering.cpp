#include "parallel/local_numbering.hpp"

#include <algorithm>
#include <string>

#include "operators/sparse/reorder.hpp"

namespace miniapp::parallel {

std::vector<int> LocalNumbering::neighbour_ranks() const {
  std::vector<int> ranks(halo_owner.begin(), halo_owner.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

namespace {

// The cells of `rank` by increasing global index, with group 0 (inner) or 1 (interface) each, and the
// halo sorted by (owner, global index).
struct Classified {
  std::vector<index_t> owned, group, halo;
};
Classified classify(const CellGraph& graph, const std::vector<int>& part, int rank) {
  Classified c;
  for (index_t cell = 0; cell < graph.cell_count(); ++cell) {
    if (part[cell] != rank) continue;
    bool interface = false;
    for (index_t nb : graph.neighbours_of(cell))
      if (part[nb] != rank) {
        interface = true;
        c.halo.push_back(nb);
      }
    c.owned.push_back(cell);
    c.group.push_back(interface ? 1 : 0);
  }
  std::sort(c.halo.begin(), c.halo.end(), [&](index_t a, index_t b) { return std::pair(part[a], a) < std::pair(part[b], b); });
  c.halo.erase(std::unique(c.halo.begin(), c.halo.end()), c.halo.end());
  return c;
}

// The local pattern (diagonal + face neighbours) of the owned rows in the order of `cells` (owned
// then halo); halo rows get only their diagonal. Row lengths are then those of a face-based
// operator, halo columns included, which is what row grouping must see.
CsrMatrix local_pattern(const CellGraph& graph, const std::vector<index_t>& cells, index_t owned,
                        const std::unordered_map<index_t, index_t>& to_local) {
  std::vector<Triplet> t;
  for (index_t i = 0; i < static_cast<index_t>(cells.size()); ++i) {
    t.push_back({i, i, 1.0});
    if (i >= owned) continue;
    for (index_t nb : graph.neighbours_of(cells[i])) t.push_back({i, to_local.at(nb), 1.0});
  }
  const index_t n = static_cast<index_t>(cells.size());
  return csr_from_triplets(n, n, std::move(t));
}

std::unordered_map<index_t, index_t> inverse(const std::vector<index_t>& local_to_global) {
  std::unordered_map<index_t, index_t> map;
  map.reserve(local_to_global.size());
  for (index_t i = 0; i < static_cast<index_t>(local_to_global.size()); ++i) map.emplace(local_to_global[i], i);
  return map;
}

}  // namespace

void LocalNumbering::relabel(const std::vector<index_t>& global_of) {
  for (index_t& cell : local_to_global) cell = global_of.at(static_cast<std::size_t>(cell));
  global_to_local = inverse(local_to_global);
}

LocalNumbering build_local_numbering(const CellGraph& graph, const std::vector<int>& part, int rank,
                                     bool lattice_order) {
  if (part.size() != static_cast<std::size_t>(graph.cell_count()))
    throw Error("build_local_numbering: partition of " + std::to_string(part.size()) + " cells for a graph of " +
                std::to_string(graph.cell_count()));
  Classified c = classify(graph, part, rank);
  if (c.owned.empty()) throw Error("build_local_numbering: rank " + std::to_string(rank) + " owns no cell");
  const index_t owned = static_cast<index_t>(c.owned.size());

  // Provisional order (owned by global index, then halo) → grouped (+ RCM) order of the owned rows.
  std::vector<index_t> cells = c.owned;
  cells.insert(cells.end(), c.halo.begin(), c.halo.end());
  std::vector<index_t> groups = c.group;
  groups.resize(cells.size(), 2);
  const Permutation p = cell_row_order(local_pattern(graph, cells, owned, inverse(cells)), lattice_order, &groups);

  LocalNumbering n;
  n.rank = rank;
  n.inner_count = static_cast<index_t>(std::count(c.group.begin(), c.group.end(), 0));
  n.interface_count = owned - n.inner_count;
  n.halo_count = static_cast<index_t>(c.halo.size());
  n.local_to_global.reserve(cells.size());
  // Group 2 (halo) comes last in p, so its first `owned` entries are the owned rows; the halo keeps
  // its (owner, global) order rather than p's.
  for (index_t i = 0; i < owned; ++i) n.local_to_global.push_back(cells[p.new_to_old[i]]);
  n.local_to_global.insert(n.local_to_global.end(), c.halo.begin(), c.halo.end());
  for (index_t h : c.halo) n.halo_owner.push_back(part[h]);
  n.global_to_local = inverse(n.local_to_global);
  return n;
}

CsrMatrix local_rows(const CsrMatrix& global, const LocalNumbering& numbering) {
  const index_t owned = numbering.owned_count();
  std::vector<Triplet> t;
  for (index_t i = 0; i < owned; ++i) {
    const index_t row = numbering.local_to_global[i];
    if (row >= global.rows)
      throw Error("local_rows: global cell " + std::to_string(row) + " is beyond the " + std::to_string(global.rows) +
                  " rows of the operator");
    for (index_t p = global.row_ptr[row]; p < global.row_ptr[row + 1]; ++p) {
      const index_t col = numbering.to_local(global.col[p]);
      if (col < 0)
        throw Error("local_rows: on rank " + std::to_string(numbering.rank) + " the row of cell " +
                    std::to_string(row) + " couples to cell " + std::to_string(global.col[p]) +
                    ", which is neither owned nor in the halo (the operator reaches beyond face neighbours)");
      t.push_back({i, col, global.val[p]});
    }
  }
  return csr_from_triplets(owned, numbering.local_count(), std::move(t));
}

std::vector<double> local_values(const std::vector<double>& global, const LocalNumbering& numbering) {
  std::vector<double> local;
  local.reserve(numbering.local_to_global.size());
  for (index_t g : numbering.local_to_global) {
    if (g >= static_cast<index_t>(global.size()))
      throw Error("local_values: global cell " + std::to_string(g) + " beyond a vector of " +
                  std::to_string(global.size()) + " entries");
    local.push_back(global[g]);
  }
  return local;
}

}  // namespace miniapp::parallel
