#include <catch2/catch.hpp>

#include "miniapp/time/distributed_pressure_solver.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/aip.hpp"
#include "solvers/jacobi.hpp"
#include "tests/operators/matrix_generators.hpp"
#include "tests/parallel/parallel_test_support.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

TEST_CASE("distributed PCG converges to the single-rank solution", "[mpi][pcg]") {
  const std::string kind = GENERATE("hex", "tet");
  const std::string preconditioner = GENERATE("jacobi", "aip1");
  CAPTURE(kind, preconditioner);
  const Communicator comm;
  const mesh::Mesh whole = test::test_box(kind, true);
  const CsrMatrix a = test::minus_laplacian(whole);
  const CellGraph graph = cell_graph(whole);
  const LocalNumbering n = build_local_numbering(graph, partition_cells(comm, graph), comm.rank());
  const Executor exec = Executor::cpu();
  const index_t cells = graph.cell_count();

  PcgOptions options;
  options.tolerance = 1e-10;
  options.singular = true;
  auto b = test::random_vector(cells, 61);
  double mean = 0;
  for (double v : b) mean += v / cells;
  for (double& v : b) v -= mean;

  // Reference: one rank, whole system.
  Pcg serial(exec, cells);
  const DeviceSell a_whole(exec, to_sell(a, 4));
  const Jacobi jacobi_whole(exec, a);
  Vector x_ref(exec, cells);
  fill(exec, 0.0, x_ref);
  REQUIRE(serial.solve(a_whole, jacobi_whole, Vector::from_host(exec, b), x_ref, options).converged);
  const auto expected = x_ref.to_host();

  Subdomain domain(comm, exec, n);
  const CsrMatrix local = test::local_square(a, n);
  const CsrMatrix block = block_of_owned_rows(local, n.owned_count());
  std::unique_ptr<Preconditioner> m;
  if (preconditioner == "jacobi") m = std::make_unique<Jacobi>(exec, block);
  else m = std::make_unique<Aip>(exec, block, 1, 4);
  time::DistributedPcgPressureSolver solver(exec, domain, local, 4, std::move(m), options);
  Vector x(exec, n.local_count());
  fill(exec, 0.0, x);
  const PcgResult r = solver.solve(Vector::from_host(exec, local_values(b, n)), x, 1);
  CHECK(r.converged);
  const auto got = x.to_host();
  double scale = 0;
  for (double v : expected) scale = std::max(scale, std::abs(v));
  for (index_t l = 0; l < n.owned_count(); ++l)
    CHECK(got[l] == Approx(expected[n.local_to_global[l]]).margin(1e-7 * scale));
}
