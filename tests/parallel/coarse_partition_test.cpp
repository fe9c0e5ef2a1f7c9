// The partition through the graph of aggregates (coarse_partition.hpp) against METIS on every cell.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "mesh/generators.hpp"
#include "parallel/coarse_partition.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

namespace {

CellGraph box_graph(const std::string& kind) {
  mesh::BoxSpec spec;
  spec.cells = kind == "hex" ? std::array<index_t, 3>{40, 40, 40} : std::array<index_t, 3>{20, 20, 20};
  return cell_graph(kind == "hex" ? mesh::make_hex_box(spec) : mesh::make_tet_box(spec));
}

}  // namespace

TEST_CASE("aggregates hold every cell, at most 12 each, joined through faces", "[partition]") {
  const std::string kind = GENERATE("hex", "tet");
  CAPTURE(kind);
  const CellGraph g = box_graph(kind);
  const Aggregates a = aggregate_cells(g);
  REQUIRE(a.of_cell.size() == static_cast<std::size_t>(g.cell_count()));
  std::vector<index_t> size(static_cast<std::size_t>(a.count), 0);
  for (const index_t agg : a.of_cell) {
    REQUIRE(agg >= 0);
    REQUIRE(agg < a.count);
    ++size[agg];
  }
  CHECK(*std::min_element(size.begin(), size.end()) >= 1);
  CHECK(*std::max_element(size.begin(), size.end()) <= 12);
  CHECK(double(g.cell_count()) / a.count > 4);  // a coarse graph worth partitioning instead
  // Every cell of an aggregate but one has a face neighbour in it (root and joiners are adjacent).
  for (index_t c = 0; c < g.cell_count(); ++c) {
    if (size[a.of_cell[c]] == 1) continue;
    const auto nbs = g.neighbours_of(c);
    CHECK(std::any_of(nbs.begin(), nbs.end(), [&](index_t nb) { return a.of_cell[nb] == a.of_cell[c]; }));
  }
}

TEST_CASE("the aggregates' graph keeps the cells' weights and counts the edges between aggregates", "[partition]") {
  const CellGraph g = box_graph("tet");
  std::vector<index_t> weights(static_cast<std::size_t>(g.cell_count()));
  for (std::size_t c = 0; c < weights.size(); ++c) weights[c] = 1 + static_cast<index_t>(c % 3);
  const Aggregates a = aggregate_cells(g);
  const WeightedGraph w = aggregate_graph(g, &weights, a);
  REQUIRE(w.vertex_count() == a.count);
  CHECK(std::accumulate(w.vertex_weight.begin(), w.vertex_weight.end(), 0LL) ==
        std::accumulate(weights.begin(), weights.end(), 0LL));
  long long between = 0;
  for (index_t c = 0; c < g.cell_count(); ++c)
    for (const index_t nb : g.neighbours_of(c)) between += a.of_cell[c] != a.of_cell[nb];
  CHECK(std::accumulate(w.edge_weight.begin(), w.edge_weight.end(), 0LL) == between);
  // Symmetric, without self loops: the edge (g, h) weighs what (h, g) does.
  for (index_t u = 0; u < w.vertex_count(); ++u)
    for (index_t p = w.offsets[u]; p < w.offsets[u + 1]; ++p) {
      const index_t v = w.neighbours[p];
      REQUIRE(v != u);
      const auto begin = w.neighbours.begin() + w.offsets[v], end = w.neighbours.begin() + w.offsets[v + 1];
      const auto back = std::find(begin, end, u);
      REQUIRE(back != end);
      CHECK(w.edge_weight[static_cast<std::size_t>(back - w.neighbours.begin())] == w.edge_weight[p]);
    }
}

TEST_CASE("the partition through aggregates is balanced, reproducible and cuts few more edges than METIS on the cells",
          "[partition]") {
  const std::string kind = GENERATE("hex", "tet");
  const int parts = GENERATE(4, 8);
  CAPTURE(kind, parts);
  const CellGraph g = box_graph(kind);
  const std::vector<int> coarse = partition_graph(g, parts, nullptr, GraphCoarsening::always);
  const std::vector<int> direct = partition_graph(g, parts, nullptr, GraphCoarsening::never);
  CHECK(coarse == partition_graph(g, parts, nullptr, GraphCoarsening::always));
  CHECK(coarse != direct);  // the coarse path was taken
  const std::vector<long long> w = part_weights(coarse, parts, nullptr);
  CHECK(*std::min_element(w.begin(), w.end()) > 0);
  CHECK(*std::max_element(w.begin(), w.end()) <= metis_imbalance * g.cell_count() / parts);
  // On boxes this small the aggregates' ragged boundaries cost most (hex boxes, whose planes METIS
  // finds on the cells, more than tets): a bound with room for them.
  CAPTURE(cut_edges(g, coarse), cut_edges(g, direct));
  CHECK(cut_edges(g, coarse) <= 1.35 * cut_edges(g, direct));
}

TEST_CASE("cell weights steer the balance through aggregates too", "[partition]") {
  const CellGraph g = box_graph("hex");
  std::vector<index_t> weights(static_cast<std::size_t>(g.cell_count()), 1);
  for (std::size_t c = 0; c < weights.size() / 4; ++c) weights[c] = 5;  // the first quarter weighs 5 times
  const std::vector<int> part = partition_graph(g, 4, &weights, GraphCoarsening::always);
  const std::vector<long long> w = part_weights(part, 4, &weights);
  CHECK(std::accumulate(w.begin(), w.end(), 0LL) == std::accumulate(weights.begin(), weights.end(), 0LL));
  const double mean = std::accumulate(weights.begin(), weights.end(), 0.0) / 4;
  CHECK(*std::max_element(w.begin(), w.end()) <= metis_imbalance * mean);
  CHECK(*std::min_element(w.begin(), w.end()) >= 0.9 * mean);
}

TEST_CASE("boundary refinement cuts no more edges and keeps the parts within the imbalance", "[partition]") {
  const CellGraph g = box_graph("tet");
  const int parts = 4;
  // Parts of consecutive cells with a ragged boundary: every 7th cell of each quarter given to the next part.
  std::vector<int> part(static_cast<std::size_t>(g.cell_count()));
  for (std::size_t c = 0; c < part.size(); ++c) {
    const int quarter = static_cast<int>(c * parts / part.size());
    part[c] = c % 7 == 0 ? (quarter + 1) % parts : quarter;
  }
  const long long before = cut_edges(g, part);
  refine_partition(g, nullptr, part, parts, metis_imbalance);
  CAPTURE(before, cut_edges(g, part));
  CHECK(cut_edges(g, part) < before);
  const std::vector<long long> w = part_weights(part, parts, nullptr);
  CHECK(*std::max_element(w.begin(), w.end()) <= metis_imbalance * g.cell_count() / parts);
}
