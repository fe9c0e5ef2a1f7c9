#include <catch2/catch.hpp>

#include <sstream>

#include "parallel/local_numbering.hpp"
#include "parallel/partition_stats.hpp"
#include "tests/parallel/parallel_test_support.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

namespace {

bool is_owned(const LocalNumbering& n, index_t global) {
  const index_t l = n.to_local(global);
  return l >= 0 && l < n.owned_count();
}

}  // namespace

TEST_CASE("local numbering: inner, then interface, then halo cells, each classified right", "[mpi][numbering]") {
  const Communicator comm;
  const std::string kind = GENERATE("hex", "tet");
  const bool periodic = GENERATE(false, true);
  CAPTURE(kind, periodic, comm.rank());
  const CellGraph g = cell_graph(test::test_box(kind, periodic));
  const std::vector<int> part = partition_cells(comm, g);
  const LocalNumbering n = build_local_numbering(g, part, comm.rank());
  REQUIRE(n.local_to_global.size() == static_cast<std::size_t>(n.local_count()));

  for (index_t l = 0; l < n.owned_count(); ++l) {
    const index_t cell = n.local_to_global[l];
    REQUIRE(part[cell] == comm.rank());
    REQUIRE(n.to_local(cell) == l);
    bool remote_neighbour = false;
    for (index_t nb : g.neighbours_of(cell)) {
      if (part[nb] != comm.rank()) remote_neighbour = true;
      CHECK(n.to_local(nb) >= 0);  // every neighbour of an owned cell is owned or halo
    }
    CHECK(remote_neighbour == (l >= n.inner_count));
  }
  for (index_t h = 0; h < n.halo_count; ++h) {
    const index_t cell = n.local_to_global[n.owned_count() + h];
    CHECK(part[cell] == n.halo_owner[h]);
    CHECK(part[cell] != comm.rank());
    const auto nb = g.neighbours_of(cell);
    CHECK(std::any_of(nb.begin(), nb.end(), [&](index_t c) { return is_owned(n, c); }));
    if (h > 0) CHECK(n.halo_owner[h - 1] <= n.halo_owner[h]);
  }
  // Every cell is owned by exactly one rank.
  std::vector<double> owners(static_cast<std::size_t>(g.cell_count()), 0.0);
  for (index_t l = 0; l < n.owned_count(); ++l) owners[n.local_to_global[l]] = 1.0;
  comm.allreduce(owners, ReduceOp::sum);
  CHECK(std::all_of(owners.begin(), owners.end(), [](double c) { return c == 1.0; }));
  if (comm.size() == 1) CHECK(n.halo_count == 0);
}

TEST_CASE("the owned rows are grouped by row length inside inner and interface", "[mpi][numbering]") {
  const Communicator comm;
  const CellGraph g = cell_graph(test::test_box("hex", false));
  const std::vector<int> part = partition_cells(comm, g);
  const bool lattice_order = GENERATE(false, true);
  CAPTURE(lattice_order, comm.rank());
  const LocalNumbering n = build_local_numbering(g, part, comm.rank(), lattice_order);
  // Row length of a face operator = 1 + neighbours; longest first inside each group (boundary last).
  auto length = [&](index_t l) { return g.neighbours_of(n.local_to_global[l]).size(); };
  std::size_t out_of_index_order = 0;
  for (index_t l = 1; l < n.owned_count(); ++l)
    if (l != n.inner_count) {
      CHECK(length(l - 1) >= length(l));
      if (length(l - 1) == length(l) && n.local_to_global[l - 1] > n.local_to_global[l]) ++out_of_index_order;
    }
  // In lattice order the cells of one group and length keep their order; RCM's order does not.
  if (lattice_order) CHECK(out_of_index_order == 0);
  else CHECK(out_of_index_order > 0);
  // The same cells either way, classified the same.
  const LocalNumbering other = build_local_numbering(g, part, comm.rank(), !lattice_order);
  CHECK(other.inner_count == n.inner_count);
  CHECK(other.interface_count == n.interface_count);
  CHECK(std::is_permutation(n.local_to_global.begin(), n.local_to_global.begin() + n.inner_count,
                            other.local_to_global.begin()));
}

TEST_CASE("local rows of a global operator use owned-then-halo columns", "[mpi][numbering]") {
  const Communicator comm;
  const CellGraph g = cell_graph(test::test_box("tet", true));
  const LocalNumbering n = build_local_numbering(g, partition_cells(comm, g), comm.rank());
  const CsrMatrix global = test::random_graph_operator(g, 3);
  const CsrMatrix local = local_rows(global, n);
  REQUIRE(local.rows == n.owned_count());
  REQUIRE(local.cols == n.local_count());
  long long nnz = local.nnz();
  CHECK(comm.allreduce(nnz, ReduceOp::sum) == global.nnz());
  for (index_t l = 0; l < n.owned_count(); ++l) {
    const index_t row = n.local_to_global[l];
    REQUIRE(local.row_length(l) == global.row_length(row));
    for (index_t p = local.row_ptr[l]; p < local.row_ptr[l + 1]; ++p) {
      const index_t gcol = n.local_to_global[local.col[p]];
      const auto* begin = global.col.data() + global.row_ptr[row];
      const auto* end = global.col.data() + global.row_ptr[row + 1];
      const auto* hit = std::find(begin, end, gcol);
      REQUIRE(hit != end);
      CHECK(local.val[p] == global.val[hit - global.col.data()]);
    }
  }
}

TEST_CASE("partition statistics add up over ranks and print on one line", "[mpi][numbering]") {
  const Communicator comm;
  const CellGraph g = cell_graph(test::test_box("hex", true));
  const LocalNumbering n = build_local_numbering(g, partition_cells(comm, g), comm.rank());
  const PartitionStats s = partition_stats(comm, n);
  CHECK(s.owned.total == g.cell_count());
  CHECK(s.owned.min <= n.owned_count());
  CHECK(s.owned.max >= n.owned_count());
  CHECK(s.neighbours.max <= comm.size() - 1);
  if (comm.size() > 1) CHECK(s.neighbours.min >= 1);  // the box is connected
  CHECK(s.imbalance() >= 1.0);
  std::ostringstream out;
  print(out, s);
  CHECK_THAT(out.str(), Catch::StartsWith("partition: " + std::to_string(comm.size()) + " ranks, " +
                                           std::to_string(g.cell_count()) + " cells"));
  if (comm.size() == 1) CHECK(s.halo.max == 0);
}
