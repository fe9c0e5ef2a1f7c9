// The FFT path's leading frequency blocks chosen on the time loop's own solves: Jacobi everywhere up to
// step 3, the configurations of the greedy search timed on the systems of steps 2 and 3 from each
// step's start, the fastest kept from step 4 and told once; the steps' results those of Jacobi,
// bitwise; a checkpointed run's choice repeated without timing; a configuration that cannot be built
// never chosen; the blocks tried and not chosen freed.
#include <catch2/catch.hpp>

#include <cstring>

#include "mesh/generators.hpp"
#include "operators/fv/laplacian.hpp"
#include "tests/fft/fft_test_support.hpp"
#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

const std::vector<std::string> fft_box = {"mesh.cells=[16,16,16]", "numerics.poisson=\"fft\"", "output.interval=0"};

void advance(Simulation& sim, int steps) {
  for (int s = 0; s < steps; ++s) REQUIRE(sim.scheme->advance(*sim.fields).poisson.converged);
}

time::FftPressureSolver& fft_solver(Simulation& sim) {
  auto* solver = dynamic_cast<time::FftPressureSolver*>(&sim.scheme->pressure_solver());
  REQUIRE(solver);
  return *solver;
}

int leading_blocks(Simulation& sim) {
  return fft_solver(sim).timed_choices().at(0).second;  // negative: AMG's
}

TEST_CASE("The FFT path's leading blocks are chosen on the solves of steps 2 and 3 and kept from step 4",
          "[run][fft]") {
  Simulation sim = make_simulation("taylor-green-3d", fft_box);
  time::FftPressureSolver& solver = fft_solver(sim);
  REQUIRE(solver.block_choice());
  CHECK(solver.choosing());
  CHECK(solver.timed_choices().empty());  // nothing a checkpoint should repeat yet
  CHECK_THAT(solver.configuration(), Catch::StartsWith("Jacobi on k = 0..") && Catch::Contains("from step 4"));
  advance(sim, 2);
  CHECK(solver.choosing());
  CHECK(solver.new_choice().empty());
  advance(sim, 1);
  CHECK(!solver.choosing());
  const std::string told = solver.new_choice();
  CHECK_THAT(told, Catch::Contains("the fastest on the solves of steps 2-3") && Catch::Contains("0 AMG: ") &&
                       Catch::Contains("1 AMG: "));
  CHECK(solver.new_choice().empty());  // told once
  // The greedy search over the recorded costs (each the faster of the two steps') keeps the same blocks.
  const auto& costs = solver.block_choice()->costs();
  REQUIRE(costs.size() >= 2);
  for (const auto& [blocks, cost] : costs) CHECK((cost.seconds > 0 && cost.iterations > 0));
  const int blocks = sim.scheme->pressure_solver().timed_choices().at(0).second;
  CHECK(blocks <= 0);  // AMG's (numerics.preconditioner = auto on the FFT path)
  const int greedy = fft::choose_aip_blocks(costs.rbegin()->first + 1, [&](int m) {
    const auto c = costs.find(m);
    return c == costs.end() ? 1e300 : c->second.seconds;
  });
  CHECK(-blocks == greedy);
  advance(sim, 1);
  CHECK(solver.block_choice()->costs() == costs);  // no more timing
}

TEST_CASE("The timed solves of steps 2 and 3 leave the steps' results Jacobi's bitwise", "[run][fft]") {
  Simulation timed = make_simulation("taylor-green-3d", fft_box);
  std::vector<std::string> jacobi = fft_box;
  jacobi.push_back("numerics.fft_low_frequency_blocks=0");
  Simulation fixed = make_simulation("taylor-green-3d", jacobi);
  CHECK(!fft_solver(fixed).block_choice());
  CHECK(!fixed.scheme->pressure_solver().choosing());
  advance(timed, 3);
  advance(fixed, 3);
  for (int d = 0; d < 3; ++d) {
    const auto a = timed.fields->u[d].to_host(), b = fixed.fields->u[d].to_host();
    REQUIRE(a.size() == b.size());
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
  }
  const auto p = timed.fields->pressure.to_host(), q = fixed.fields->pressure.to_host();
  CHECK(std::memcmp(p.data(), q.data(), p.size() * sizeof(double)) == 0);
}

TEST_CASE("A checkpointed run's leading blocks are repeated without timing", "[run][fft]") {
  Simulation sim = make_simulation("taylor-green-3d", fft_box);
  time::PressureSolver& solver = sim.scheme->pressure_solver();
  CHECK_THAT(solver.repeat_choices({{"fft_leading_blocks", -2.0}}), Catch::Contains("AMG") && Catch::Contains("(2 blocks)"));
  CHECK(!solver.choosing());
  CHECK(leading_blocks(sim) == -2);
  advance(sim, 4);
  CHECK(fft_solver(sim).block_choice()->costs().empty());
  CHECK(leading_blocks(sim) == -2);
  CHECK(solver.new_choice().empty());  // the restart's message told it
  CHECK_THAT(fft_solver(sim).configuration(),
             Catch::Contains("as the checkpointed run chose; its blocks hold ") && Catch::EndsWith(" MB"));
  CHECK_THROWS_WITH(solver.repeat_choices({{"fft_leading_blocks", -20.0}}), Catch::Contains("20 low-frequency blocks"));
}

// An FFT Poisson solver of a periodic box whose leading blocks are AMG's (`amg` their hierarchies'
// options), with Jacobi everywhere.
fft::FftPoisson amg_poisson(const Executor& exec, const mesh::Mesh& m,
                            const amg::AmgOptions& amg = fft::frequency_amg_options()) {
  const auto geometry = mesh::compute_geometry(m);
  fft::Extrusion extrusion = fft::detect_extrusion(m, geometry);
  const fft::PlaneOperator op = fft::split_extruded_operator(fv::laplacian_matrix(m, geometry, nullptr), extrusion);
  fft::FftPoissonOptions options;
  options.preconditioning.leading = fft::LeadingPreconditioner::amg;
  options.preconditioning.leading_blocks = 0;
  options.preconditioning.amg = amg;
  return fft::FftPoisson(exec, std::move(extrusion), op, options);
}

TEST_CASE("A configuration whose blocks cannot be built is timed as unavailable and not chosen", "[run][fft]") {
  const Executor exec = Executor::cpu();
  const mesh::Mesh m = mesh::make_hex_box({.cells = {6, 5, 8}, .periodic = {true, true, true}});
  amg::AmgOptions refused = fft::frequency_amg_options();
  refused.smoother_degree = 2;  // the frequency systems' AMG refuses it: no block builds
  fft::FftPoisson poisson = amg_poisson(exec, m, refused);
  time::FrequencyBlockChoice choice(exec, poisson);
  const Vector b = Vector::from_host(exec, ::miniapp::test::random_vector(static_cast<std::size_t>(m.cell_count()), 5, true));
  Vector p(exec, m.cell_count());
  fill(exec, 0.0, p);
  for (long step = 1; step <= time::FrequencyBlockChoice::last_timed_step; ++step)
    CHECK(choice.solve(b, p, step).converged);
  REQUIRE(choice.chosen());
  CHECK(poisson.batched_pcg().preconditioner().leading_blocks() == 0);
  const auto& costs = choice.costs();
  REQUIRE(costs.size() == 2);  // Jacobi, then one AMG block: the search stops there
  CHECK(costs.at(0).seconds > 0);
  CHECK_THAT(costs.at(1).unavailable, Catch::Contains("degree 1"));
  CHECK_THAT(choice.describe(), Catch::Contains("1 AMG: unavailable ("));
}

TEST_CASE("The blocks tried and not chosen are freed at the choice", "[run][fft][memory]") {
  const mesh::Mesh m = mesh::make_hex_box({.cells = {24, 20, 8}, .periodic = {true, true, true}});
  const Executor exec = Executor::cpu();
  fft::FftPoisson poisson = amg_poisson(exec, m);
  time::FrequencyBlockChoice choice(exec, poisson);
  const Vector b = Vector::from_host(exec, ::miniapp::test::random_vector(static_cast<std::size_t>(m.cell_count()), 7, true));
  Vector p(exec, m.cell_count());
  fill(exec, 0.0, p);
  const std::size_t before = exec.bytes_allocated();
  for (long step = 1; step <= time::FrequencyBlockChoice::last_timed_step; ++step) REQUIRE(choice.solve(b, p, step).converged);
  REQUIRE(choice.chosen());
  const int chosen = poisson.batched_pcg().preconditioner().leading_blocks();
  REQUIRE(choice.costs().rbegin()->first > chosen);  // a block was built and not chosen
  // What the chosen blocks hold, built alone by another solver.
  const Executor alone = Executor::cpu();
  fft::FftPoisson reference = amg_poisson(alone, m);
  const std::size_t jacobi = alone.bytes_allocated();
  REQUIRE(reference.try_leading_blocks(chosen).empty());
  CHECK(exec.bytes_allocated() - before == alone.bytes_allocated() - jacobi);
  CHECK(poisson.batched_pcg().preconditioner().leading_bytes() == exec.bytes_allocated() - before);
  // What the blocks hold, as the solver counts it, whatever the timing chose: two blocks built.
  REQUIRE(reference.try_leading_blocks(2).empty());
  CHECK(reference.batched_pcg().preconditioner().leading_bytes() == alone.bytes_allocated() - jacobi);
  CHECK(alone.bytes_allocated() > jacobi);
  // The chosen configuration still solves.
  CHECK(choice.solve(b, p, time::FrequencyBlockChoice::last_timed_step + 1).converged);
}

}  // namespace
}  // namespace miniapp::run::test
