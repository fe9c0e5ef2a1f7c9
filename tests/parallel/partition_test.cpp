#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "parallel/partition.hpp"
#include "tests/parallel/parallel_test_support.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

TEST_CASE("the cell graph links cells through interior faces, periodic ones included", "[mpi][partition]") {
  mesh::BoxSpec spec;
  spec.cells = {3, 3, 3};
  const CellGraph walls = cell_graph(mesh::make_hex_box(spec));
  REQUIRE(walls.cell_count() == 27);
  CHECK(walls.neighbours_of(13).size() == 6);  // the centre cell
  CHECK(walls.neighbours_of(0).size() == 3);   // a corner
  CHECK(walls.neighbours_of(4).size() == 5);   // the middle of the z = 0 face
  spec.periodic = {true, true, true};
  const CellGraph torus = cell_graph(mesh::make_hex_box(spec));
  for (index_t c = 0; c < torus.cell_count(); ++c) CHECK(torus.neighbours_of(c).size() == 6);
  // Symmetric: b is a neighbour of a exactly when a is one of b.
  for (index_t a = 0; a < torus.cell_count(); ++a)
    for (index_t b : torus.neighbours_of(a)) {
      const auto nb = torus.neighbours_of(b);
      CHECK(std::count(nb.begin(), nb.end(), a) == 1);
    }
}

TEST_CASE("a periodic axis one cell thick adds no self loop", "[mpi][partition]") {
  mesh::BoxSpec spec;
  spec.cells = {4, 4, 1};
  spec.periodic = {false, false, true};
  const CellGraph g = cell_graph(mesh::make_hex_box(spec));
  for (index_t c = 0; c < g.cell_count(); ++c) {
    const auto nb = g.neighbours_of(c);
    CHECK(std::find(nb.begin(), nb.end(), c) == nb.end());
  }
}

TEST_CASE("the partition gives every cell to one rank and balances the ranks", "[mpi][partition]") {
  const Communicator comm;
  const std::string kind = GENERATE("hex", "tet");
  const bool periodic = GENERATE(false, true);
  CAPTURE(kind, periodic);
  const CellGraph g = cell_graph(test::test_box(kind, periodic));
  const std::vector<int> part = partition_cells(comm, g);
  REQUIRE(part.size() == static_cast<std::size_t>(g.cell_count()));
  std::vector<index_t> owned(static_cast<std::size_t>(comm.size()), 0);
  for (int p : part) {
    REQUIRE(p >= 0);
    REQUIRE(p < comm.size());
    ++owned[p];
  }
  // Every rank received the same vector: the sum of each rank's own count is the cell count.
  CHECK(comm.allreduce(static_cast<long long>(owned[comm.rank()]), ReduceOp::sum) == g.cell_count());
  const double mean = double(g.cell_count()) / comm.size();
  CHECK(*std::min_element(owned.begin(), owned.end()) > 0);
  CHECK(*std::max_element(owned.begin(), owned.end()) <= std::ceil(metis_imbalance * mean) + 1);
}

TEST_CASE("cell weights steer the balance", "[mpi][partition]") {
  const CellGraph g = cell_graph(test::test_box("hex", false));
  // The first half of the cells costs three times the rest: two parts then hold equal weight, not
  // equal cell counts.
  std::vector<index_t> weight(static_cast<std::size_t>(g.cell_count()), 1);
  std::fill(weight.begin(), weight.begin() + g.cell_count() / 2, 3);
  const std::vector<int> part = partition_graph(g, 2, &weight);
  double load[2] = {0, 0};
  for (index_t c = 0; c < g.cell_count(); ++c) load[part[c]] += weight[c];
  CHECK(std::max(load[0], load[1]) <= metis_imbalance * (load[0] + load[1]) / 2 + 3);
}

TEST_CASE("partition errors say what is wrong", "[mpi][partition]") {
  mesh::BoxSpec spec;
  spec.cells = {2, 2, 1};
  const CellGraph g = cell_graph(mesh::make_hex_box(spec));
  CHECK_THROWS_WITH(partition_graph(g, 5), Catch::Contains("5 ranks for a mesh of 4 cells"));
  CHECK_THROWS_WITH(partition_graph(g, 0), Catch::Contains("0 parts requested"));
  std::vector<index_t> weight{1, 1, 0, 1};
  CHECK_THROWS_WITH(partition_graph(g, 2, &weight), Catch::Contains("weight of cell 2 is 0"));
  CHECK(partition_graph(g, 1) == std::vector<int>(4, 0));
}
