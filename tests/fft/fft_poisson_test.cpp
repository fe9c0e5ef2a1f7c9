// The FFT Poisson path against the 3D Jacobi-PCG solution of the same system −L p = b, and its warm start.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "solvers/fft/fft_poisson.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/pcg.hpp"
#include "tests/fft/fft_test_support.hpp"

using namespace miniapp;
using test::norm;

namespace {

constexpr double tolerance = 1e-10;

struct Problem {
  CsrMatrix l;
  fft::PlaneOperator op;
  std::unique_ptr<fft::FftPoisson> solver;
};

Problem make_problem(const mesh::Mesh& m, const fv::FlowBoundaries* boundaries, int leading_blocks,
                     fft::LeadingPreconditioner leading = fft::LeadingPreconditioner::aip) {
  const auto geometry = mesh::compute_geometry(m);
  Problem p{fv::laplacian_matrix(m, geometry, boundaries), {}, nullptr};
  fft::Extrusion e = fft::detect_extrusion(m, geometry);
  p.op = fft::split_extruded_operator(p.l, e);
  fft::FftPoissonOptions options;
  options.pcg = {.tolerance = tolerance, .max_iterations = 5000};
  options.preconditioning.leading = leading;
  options.preconditioning.leading_blocks = leading_blocks;
  options.preconditioning.amg.coarse_rows = 20;  // small meshes: still a hierarchy of several levels
  p.solver = std::make_unique<fft::FftPoisson>(Executor::cpu(), std::move(e), p.op, options);
  return p;
}

std::vector<double> solve(fft::FftPoisson& solver, const std::vector<double>& b, std::vector<double> start, bool warm,
                          fft::FftPoissonResult& result) {
  const Executor exec = Executor::cpu();
  Vector p = Vector::from_host(exec, start);
  result = solver.solve(Vector::from_host(exec, b), p, warm);
  REQUIRE(result.converged);
  return p.to_host();
}

// Solves −L p = b for a random b by the FFT path and by 3D PCG and compares; returns the FFT path's
// solution.
std::vector<double> compare_with_pcg(const mesh::Mesh& m, const fv::FlowBoundaries* boundaries, int leading_blocks = 0,
                                     fft::LeadingPreconditioner leading = fft::LeadingPreconditioner::aip) {
  Problem problem = make_problem(m, boundaries, leading_blocks, leading);
  const auto b = test::random_vector(static_cast<std::size_t>(m.cell_count()), 11, problem.op.singular);
  fft::FftPoissonResult result;
  const auto p = solve(*problem.solver, b, std::vector<double>(b.size(), 0.0), false, result);
  REQUIRE(result.frequencies.iterations.size() == static_cast<std::size_t>(problem.solver->extrusion().planes + 2));
  for (double& v : problem.l.val) v = -v;
  const auto reference = test::pcg_reference(problem.l, b, problem.op.singular, tolerance);
  std::vector<double> residual = reference_spmv(problem.l, p);
  for (std::size_t i = 0; i < p.size(); ++i) residual[i] -= b[i];
  CHECK(norm(residual) <= 10 * tolerance * norm(b));
  CHECK(test::distance(p, reference) <= 1e-6 * norm(reference));
  return p;
}

}  // namespace

TEST_CASE("FFT Poisson matches 3D PCG on extruded prisms with walls", "[fft]") {
  compare_with_pcg(mesh::extrude(mesh::make_tri_rect({.cells = {6, 5}, .stretch = {1.2, 0}}), {.layers = 8}), nullptr);
}

TEST_CASE("FFT Poisson matches 3D PCG on extruded prisms with walls and an outlet", "[fft]") {
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {5, 6}}), {.layers = 6, .length = 3});
  const auto b = test::side_boundaries(m, true);
  compare_with_pcg(m, &b);
}

TEST_CASE("FFT Poisson matches 3D PCG on extruded hexahedra with walls and an outlet", "[fft]") {
  const auto m = mesh::extrude(mesh::make_quad_rect({.cells = {7, 4}, .stretch = {0, 1.5}}), {.layers = 10});
  const auto b = test::side_boundaries(m, true);
  compare_with_pcg(m, &b);
}

TEST_CASE("FFT Poisson matches 3D PCG on a fully periodic hex box (no walls)", "[fft]") {
  compare_with_pcg(mesh::make_hex_box({.cells = {5, 6, 8}, .length = {1, 2, 3}, .periodic = {true, true, true}}), nullptr);
}

TEST_CASE("FFT Poisson with AIP on the low frequency blocks matches 3D PCG", "[fft]") {
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {8, 7}, .stretch = {1.2, 0}}), {.layers = 16});
  SECTION("singular (walls)") { compare_with_pcg(m, nullptr, 2); }
  SECTION("with an outlet, every block AIP") {
    const auto b = test::side_boundaries(m, true);
    compare_with_pcg(m, &b, 3);
  }
}

TEST_CASE("FFT Poisson with AMG on the low frequency blocks matches 3D PCG and the AIP path", "[fft][amg]") {
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {10, 9}, .stretch = {1.2, 0}}), {.layers = 16});
  const auto b = test::side_boundaries(m, true);
  const bool outlet = GENERATE(false, true);  // walls only (singular), or with an outlet
  CAPTURE(outlet);
  const fv::FlowBoundaries* boundaries = outlet ? &b : nullptr;
  const auto amg = compare_with_pcg(m, boundaries, 2, fft::LeadingPreconditioner::amg);
  const auto aip = compare_with_pcg(m, boundaries, 2, fft::LeadingPreconditioner::aip);
  CHECK(test::distance(amg, aip) <= 1e-7 * norm(aip));
}

TEST_CASE("Warm start from the previous pressure: same solution in fewer iterations", "[fft]") {
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {12, 10}, .stretch = {1.3, 0}}), {.layers = 16});
  Problem problem = make_problem(m, nullptr, 0);
  const std::size_t n = static_cast<std::size_t>(m.cell_count());
  const auto b = test::random_vector(n, 21, true), change = test::random_vector(n, 22, true);
  fft::FftPoissonResult first, cold, warm;
  const auto previous = solve(*problem.solver, b, std::vector<double>(n, 0.0), false, first);
  std::vector<double> next_b = b;  // the next step's right-hand side: close to this one
  for (std::size_t i = 0; i < n; ++i) next_b[i] += 1e-3 * change[i];
  const auto p_cold = solve(*problem.solver, next_b, previous, false, cold);
  const auto p_warm = solve(*problem.solver, next_b, previous, true, warm);
  CHECK(test::distance(p_warm, p_cold) <= 1e-7 * norm(p_cold));
  CHECK(warm.max_iterations < cold.max_iterations);
  int cold_total = 0, warm_total = 0;
  for (std::size_t s = 0; s < cold.frequencies.iterations.size(); ++s) {
    CHECK(warm.frequencies.iterations[s] <= cold.frequencies.iterations[s]);
    cold_total += cold.frequencies.iterations[s], warm_total += warm.frequencies.iterations[s];
  }
  CHECK(warm_total < cold_total);
  SECTION("the exact previous solution needs no iteration") {
    fft::FftPoissonResult again;
    const auto p_again = solve(*problem.solver, next_b, p_warm, true, again);
    CHECK(again.max_iterations <= 1);
    CHECK(test::distance(p_again, p_warm) <= 1e-8 * norm(p_warm));
  }
}

TEST_CASE("The FFT path's set-up adds the time of each of its parts to a stage profile", "[fft]") {
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {8, 7}}), {.layers = 8});
  const auto geometry = mesh::compute_geometry(m);
  const CsrMatrix l = fv::laplacian_matrix(m, geometry, nullptr);
  fft::Extrusion e = fft::detect_extrusion(m, geometry);
  const fft::PlaneOperator op = fft::split_extruded_operator(l, e);
  fft::FftPoissonOptions options;
  options.pcg = {.tolerance = tolerance, .max_iterations = 5000};
  const int leading_blocks = GENERATE(-1, 1);  // chosen by timed solves, or set
  CAPTURE(leading_blocks);
  options.preconditioning.leading_blocks = leading_blocks;
  StageProfile profile;
  const fft::FftPoisson solver(Executor::cpu(), std::move(e), op, options, nullptr, nullptr, &profile);
  std::ostringstream printed;
  profile.print(printed);
  std::vector<std::string> parts = {"frequency systems", "transforms", "low-frequency blocks"};
  if (leading_blocks < 0) parts.push_back("timed solves");
  for (const std::string& part : parts) CHECK_THAT(printed.str(), Catch::Contains("    " + part));
  if (leading_blocks >= 0) CHECK_THAT(printed.str(), !Catch::Contains("timed solves"));
}
