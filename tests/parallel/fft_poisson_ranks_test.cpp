// The FFT Poisson path on a P × 1 partition (thesis §4.5.3): the line partition, the block halo
// exchange of the frequency vectors, and the distributed solve against the single-rank 3D PCG solution.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "parallel/block_halo_exchange.hpp"
#include "parallel/line_partition.hpp"
#include "parallel/local_mesh.hpp"
#include "solvers/fft/fft_poisson.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/pcg.hpp"
#include "tests/fft/fft_test_support.hpp"
#include "tests/parallel/parallel_test_support.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

namespace {

constexpr double tolerance = 1e-10;

// The meshes of the single-rank FFT tests: prisms and hexahedra, walls (singular), walls and an
// outlet on xmax, and no walls at all (periodic on every axis).
struct Case {
  std::string name;
  mesh::Mesh mesh;
  bool outlet;
};

Case test_case(int which) {
  switch (which) {
    case 0: return {"prisms, walls", mesh::extrude(mesh::make_tri_rect({.cells = {6, 5}, .stretch = {1.2, 0}}), {.layers = 8}), false};
    case 1: return {"prisms, walls and outlet", mesh::extrude(mesh::make_tri_rect({.cells = {5, 6}}), {.layers = 6, .length = 3}), true};
    case 2: return {"hexahedra, walls and outlet", mesh::extrude(mesh::make_quad_rect({.cells = {7, 4}, .stretch = {0, 1.5}}), {.layers = 10}), true};
    default: return {"hexahedra, no walls", mesh::make_hex_box({.cells = {5, 6, 8}, .length = {1, 2, 3}, .periodic = {true, true, true}}), false};
  }
}

CsrMatrix laplacian(const mesh::Mesh& m, bool outlet) {
  const fv::FlowBoundaries b = test::side_boundaries(m, outlet);  // the cut patch of a rank's mesh: a wall
  return fv::laplacian_matrix(m, mesh::compute_geometry(m), &b);
}

std::vector<index_t> lines_of(const mesh::Mesh& m) { return fft::detect_extrusion(m, mesh::compute_geometry(m)).cell_2d; }

// The rank's FFT solver on its cut-out mesh, as FftPressureSolver builds it.
struct RankSolver {
  std::unique_ptr<fft::PlanePartition> plane;
  std::unique_ptr<fft::FftPoisson> poisson;
};

RankSolver rank_solver(const Communicator& comm, const mesh::Mesh& local, const LocalNumbering& n, bool outlet,
                       int leading_blocks, fft::LeadingPreconditioner leading = fft::LeadingPreconditioner::aip) {
  const auto geometry = mesh::compute_geometry(local);
  fft::Extrusion e = fft::detect_extrusion(local, geometry);
  fft::PlaneOperator op = fft::split_extruded_operator(laplacian(local, outlet), e);
  RankSolver r;
  r.plane = std::make_unique<fft::PlanePartition>(comm, Executor::cpu(), fft::plane_numbering(e, n),
                                                  fft::mode_stride(Backend::cpu, e.planes));
  op.singular = r.plane->all(op.singular);
  fft::FftPoissonOptions options;
  options.pcg = {.tolerance = tolerance, .max_iterations = 5000};
  options.preconditioning.leading_blocks = leading_blocks;
  options.preconditioning.leading = leading;
  r.poisson = std::make_unique<fft::FftPoisson>(Executor::cpu(), std::move(e), op, options, nullptr, r.plane.get());
  return r;
}

}  // namespace

TEST_CASE("the line partition keeps every periodic line on one rank", "[mpi][fft]") {
  const Communicator comm;
  const mesh::Mesh m = test_case(0).mesh;
  const std::vector<index_t> lines = lines_of(m);
  const std::vector<int> part = partition_lines(comm, cell_graph(m), lines);
  std::vector<int> line_part(lines.size(), -1), owned_lines(static_cast<std::size_t>(comm.size()), 0);
  for (std::size_t c = 0; c < part.size(); ++c) {
    if (line_part[lines[c]] < 0) ++owned_lines[part[c]];
    else CHECK(line_part[lines[c]] == part[c]);
    line_part[lines[c]] = part[c];
  }
  for (int r = 0; r < comm.size(); ++r) CHECK(owned_lines[r] > 0);

  SECTION("fewer lines than ranks: refused on every rank with the reason") {
    const mesh::Mesh one_line = mesh::extrude(mesh::make_quad_rect({.cells = {1, 1}}), {.layers = 4});
    if (comm.size() == 1) {
      CHECK(partition_lines(comm, cell_graph(one_line), lines_of(one_line)) == std::vector<int>(4, 0));
    } else {
      CHECK_THROWS_WITH(partition_lines(comm, cell_graph(one_line), lines_of(one_line)),
                        Catch::Contains(std::to_string(comm.size()) + " ranks for 1 lines"));
    }
  }
}

TEST_CASE("block halo exchange: a range of every halo cell's block, owners' values, the rest untouched",
          "[mpi][fft]") {
  const std::string kind = GENERATE("hex", "tet");
  CAPTURE(kind);
  const Communicator comm;
  const CellGraph graph = cell_graph(test::test_box(kind, true));
  const LocalNumbering n = build_local_numbering(graph, partition_cells(comm, graph), comm.rank());
  const Executor exec = Executor::cpu();
  constexpr index_t block = 6, begin = 1, end = 4;
  const index_t sends = halo_send_count(comm, n);
  const std::size_t before = exec.bytes_allocated();
  BlockHaloExchange halo(comm, exec, n, block);
  // What the memory estimate counts for it, from the counts alone, before it is made.
  CHECK(sends == static_cast<index_t>(halo.plan().send_index.size()));
  CHECK(exec.bytes_allocated() - before == BlockHaloExchange::device_bytes(sends, n.halo_count, block));
  const auto value = [](index_t global, index_t j) { return 100.0 * global + j; };
  std::vector<double> host(static_cast<std::size_t>(n.local_count() * block), -1.0);
  for (index_t l = 0; l < n.owned_count(); ++l)
    for (index_t j = 0; j < block; ++j) host[l * block + j] = value(n.local_to_global[l], j);
  Vector v = Vector::from_host(exec, host);
  halo.exchange(v, begin, end);
  halo.exchange(v, 2, 2);  // an empty range sends nothing and changes nothing
  const auto got = v.to_host();
  for (index_t l = 0; l < n.local_count(); ++l)
    for (index_t j = 0; j < block; ++j) {
      const bool updated = l < n.owned_count() || (j >= begin && j < end);
      REQUIRE(got[l * block + j] == (updated ? value(n.local_to_global[l], j) : -1.0));
    }
  CHECK_THROWS_WITH(halo.exchange(v, 3, block + 1), Catch::Contains("outside a block of 6"));
}

TEST_CASE("FFT Poisson on P ranks (whole lines per rank) equals the single-rank 3D PCG solution", "[mpi][fft]") {
  const int which = GENERATE(0, 1, 2, 3);
  const Case c = test_case(which);
  const int leading_blocks = GENERATE(0, 1);
  // AMG on the first block (its hierarchy on each rank's owned block) where AIP is the other runs'.
  const auto leading = GENERATE(fft::LeadingPreconditioner::aip, fft::LeadingPreconditioner::amg);
  if (leading == fft::LeadingPreconditioner::amg && leading_blocks == 0) return;  // the same as AIP's 0
  CAPTURE(c.name, leading_blocks, leading == fft::LeadingPreconditioner::amg);
  const Communicator comm;
  const CsrMatrix l = laplacian(c.mesh, c.outlet);
  const CellGraph graph = cell_graph(c.mesh);
  const LocalNumbering n = build_local_numbering(graph, partition_lines(comm, graph, lines_of(c.mesh)), comm.rank());
  RankSolver solver =
      rank_solver(comm, extract_local_mesh(c.mesh, n.local_to_global), n, c.outlet, leading_blocks, leading);

  const bool singular = !c.outlet;
  const auto b = test::random_vector(static_cast<std::size_t>(c.mesh.cell_count()), 11, singular);
  const Executor exec = Executor::cpu();
  Vector p = Vector::from_host(exec, std::vector<double>(static_cast<std::size_t>(n.local_count()), 0.0));
  const fft::FftPoissonResult result = solver.poisson->solve(Vector::from_host(exec, local_values(b, n)), p);
  REQUIRE(result.converged);

  // The whole solution, owned values from every rank.
  std::vector<double> whole(b.size(), 0.0);
  const auto local = p.to_host();
  for (index_t i = 0; i < n.owned_count(); ++i) whole[n.local_to_global[i]] = local[i];
  comm.allreduce(whole, ReduceOp::sum);
  CsrMatrix minus_l = l;
  for (double& v : minus_l.val) v = -v;
  std::vector<double> residual = reference_spmv(minus_l, whole);
  for (std::size_t i = 0; i < b.size(); ++i) residual[i] -= b[i];
  CHECK(test::norm(residual) <= 10 * tolerance * test::norm(b));
  const auto reference = test::pcg_reference(minus_l, b, singular, tolerance);
  CHECK(test::distance(whole, reference) <= 1e-6 * test::norm(reference));

  SECTION("warm start from the solution: at most one iteration, same solution") {
    const fft::FftPoissonResult again = solver.poisson->solve(Vector::from_host(exec, local_values(b, n)), p, true);
    CHECK(again.max_iterations <= 1);
    const auto twice = p.to_host();
    for (index_t i = 0; i < n.owned_count(); ++i) CHECK(twice[i] == Approx(local[i]).margin(1e-8 * test::norm(reference)));
  }
}

TEST_CASE("Batched PCG on P ranks with rows wider than its systems gives the same solve and reads no extra entry",
          "[mpi][fft]") {
  // The layout of the FFT path on CUDA (mode_stride), run here on the CPU: NaN in the extra entries
  // of b would spread into the solution through any kernel or halo message that read them.
  const Case c = test_case(GENERATE(0, 2));
  const int leading_blocks = GENERATE(0, 1);
  CAPTURE(c.name, leading_blocks);
  const Communicator comm;
  const Executor exec = Executor::cpu();
  const CellGraph graph = cell_graph(c.mesh);
  const LocalNumbering n = build_local_numbering(graph, partition_lines(comm, graph, lines_of(c.mesh)), comm.rank());
  const mesh::Mesh local = extract_local_mesh(c.mesh, n.local_to_global);
  const fft::Extrusion e = fft::detect_extrusion(local, mesh::compute_geometry(local));
  fft::PlaneOperator op = fft::split_extruded_operator(laplacian(local, c.outlet), e);
  for (double& v : op.in_plane.val) v = -v;
  const index_t systems = e.planes + 2, wide = fft::mode_stride(Backend::cuda, e.planes);
  REQUIRE(wide > systems);
  std::vector<double> shifts;
  for (index_t s = 0; s < systems; ++s) shifts.push_back(-fft::periodic_eigenvalue(s / 2, e.planes));
  const auto rows = static_cast<std::size_t>(op.in_plane.rows);
  const auto b_dense = test::random_vector(rows * systems, 21 + comm.rank());
  const auto solve = [&](index_t stride) {
    std::vector<double> b_host(rows * stride, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t c = 0; c < rows; ++c)
      for (index_t s = 0; s < systems; ++s) b_host[c * stride + s] = b_dense[c * systems + s];
    fft::PlanePartition plane(comm, exec, fft::plane_numbering(e, n), stride);
    fft::BatchedPcg pcg(exec, op.in_plane, op.z_coupling, shifts, plane.all(op.singular),
                        fft::block_systems_for(systems, 8), 1, &plane, stride);
    pcg.preconditioner().use_aip_blocks(leading_blocks);
    Vector b = Vector::from_host(exec, b_host), x(exec, static_cast<index_t>(rows) * stride);
    const fft::BatchedPcgResult result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 5000});
    REQUIRE(result.converged);
    return std::pair{result.iterations, x.to_host()};
  };
  const auto [dense_iterations, x_dense] = solve(systems);
  const auto [wide_iterations, x_wide] = solve(wide);
  CHECK(wide_iterations == dense_iterations);
  const index_t owned_lines = fft::plane_numbering(e, n).owned_count();
  for (index_t c = 0; c < owned_lines; ++c)
    for (index_t s = 0; s < systems; ++s) REQUIRE(x_wide[c * wide + s] == x_dense[c * systems + s]);  // bitwise
}

TEST_CASE("FFT Poisson on P ranks: the tuned preconditioner is the same on every rank", "[mpi][fft]") {
  const Communicator comm;
  const Case c = test_case(0);
  const CellGraph graph = cell_graph(c.mesh);
  const LocalNumbering n = build_local_numbering(graph, partition_lines(comm, graph, lines_of(c.mesh)), comm.rank());
  RankSolver solver = rank_solver(comm, extract_local_mesh(c.mesh, n.local_to_global), n, c.outlet, -1);
  const int mine = solver.poisson->batched_pcg().preconditioner().aip_blocks();
  CHECK(comm.allreduce(double(mine), ReduceOp::min) == comm.allreduce(double(mine), ReduceOp::max));
}

TEST_CASE("FFT Poisson on P ranks refuses a rank mesh whose periodic lines are split", "[mpi][fft]") {
  const Communicator comm;
  if (comm.size() == 1) return;  // one rank holds every line whole
  const Case c{"prisms", mesh::extrude(mesh::make_tri_rect({.cells = {12, 12}}), {.layers = 4}), false};
  const CellGraph graph = cell_graph(c.mesh);
  const auto e = fft::detect_extrusion(c.mesh, mesh::compute_geometry(c.mesh));
  const auto rank_lines = [&](const std::vector<int>& part) {
    const LocalNumbering n = build_local_numbering(graph, part, comm.rank());
    const mesh::Mesh local = extract_local_mesh(c.mesh, n.local_to_global);
    fft::plane_numbering(fft::detect_extrusion(local, mesh::compute_geometry(local)), n);
  };
  SECTION("slabs of whole planes") {
    std::vector<int> part(static_cast<std::size_t>(c.mesh.cell_count()));
    for (std::size_t cell = 0; cell < part.size(); ++cell)
      part[cell] = static_cast<int>(e.plane[cell] * comm.size() / e.planes);
    CHECK_THROWS_WITH(rank_lines(part), Catch::Contains("FFT Poisson"));  // not an extrusion, or a split line
  }
  SECTION("one cell of a line on another rank: its line is refused by name") {
    std::vector<int> part = partition_lines(comm, graph, e.cell_2d);
    // A bottom cell of rank 0 whose neighbours are all rank 0's: moved to rank 1, rank 0 still holds
    // whole lines (that cell as halo) but one of them is split.
    const auto inner = [&](index_t cell) {
      const auto nbs = graph.neighbours_of(cell);
      return part[cell] == 0 && std::all_of(nbs.begin(), nbs.end(), [&](index_t nb) { return part[nb] == 0; });
    };
    index_t moved = -1;
    for (index_t line = 0; line < e.plane_cells && moved < 0; ++line)
      if (inner(e.at(line, 0))) moved = e.at(line, 0);
    REQUIRE(moved >= 0);
    part[moved] = 1;
    if (comm.rank() == 0) CHECK_THROWS_WITH(rank_lines(part), Catch::Contains("is split"));
  }
}
