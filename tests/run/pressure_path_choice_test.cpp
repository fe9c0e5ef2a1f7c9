// numerics.poisson = "auto" on a mesh the FFT path takes: both paths built, the FFT path solving the
// first steps, the faster on the solves of steps 4 and 5 kept from step 6 and named in the case's
// numerics; a restart's repeated choice in its place.
#include <catch2/catch.hpp>

#include <cstring>

#include "miniapp/run/pressure_path_choice.hpp"
#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

using cases::PoissonSolver;

const std::vector<std::string> small_box = {"mesh.cells=[8,8,8]", "output.interval=0"};

std::vector<std::string> with_poisson(const std::string& poisson) {
  std::vector<std::string> overrides = small_box;
  overrides.push_back("numerics.poisson=\"" + poisson + "\"");
  return overrides;
}

void advance(Simulation& sim, int steps) {
  for (int s = 0; s < steps; ++s) REQUIRE(sim.scheme->advance(*sim.fields).poisson.converged);
}

bool same_velocity_bits(const Simulation& a, const Simulation& b) {
  for (int d = 0; d < 3; ++d) {
    const auto x = a.fields->u[d].to_host(), y = b.fields->u[d].to_host();
    if (x.size() != y.size() || std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) != 0) return false;
  }
  return true;
}

TEST_CASE("numerics.poisson = auto keeps the pressure path faster on the solves of steps 4 and 5", "[run][fft]") {
  Simulation sim = make_simulation("taylor-green-3d", small_box);
  REQUIRE(sim.pressure_path);
  const PressurePathChoice& choice = *sim.pressure_path;
  CHECK(!choice.chosen());
  CHECK(sim.config.numerics.poisson == PoissonSolver::fft);
  CHECK_THAT(sim.config.numerics.poisson_choice, Catch::Contains("from step 6 the faster"));
  // Each path takes its own preconditioner: AMG on the FFT path's low frequencies, AIP-1 for PCG on 512 cells.
  CHECK(choice.paths()[0].numerics.poisson == PoissonSolver::fft);
  CHECK(choice.paths()[0].numerics.preconditioner == cases::Preconditioner::amg);
  CHECK(choice.paths()[1].numerics.poisson == PoissonSolver::pcg);
  CHECK(choice.paths()[1].numerics.preconditioner == cases::Preconditioner::aip1);
  advance(sim, 3);  // the FFT path's own choice first (FrequencyBlockChoice)
  CHECK(choice.paths()[0].seconds == 0);
  CHECK(!sim.scheme->pressure_solver().new_choice().empty());
  advance(sim, 1);
  CHECK(!choice.chosen());
  CHECK(choice.paths()[0].seconds > 0);
  CHECK(choice.paths()[1].seconds > 0);
  advance(sim, 1);
  REQUIRE(choice.chosen());
  const PressurePathChoice::Path& kept = choice.path();
  const PressurePathChoice::Path& other = choice.paths()[kept.numerics.poisson == PoissonSolver::fft ? 1 : 0];
  CHECK(kept.solver);
  CHECK(!other.solver);  // released
  CHECK(kept.seconds <= other.seconds);
  // The case's numerics name the kept path, its preconditioner and the timing, once.
  CHECK_THAT(take_pressure_path(sim), Catch::Contains("timed solves of steps 4-5"));
  CHECK(take_pressure_path(sim).empty());
  CHECK(sim.config.numerics.poisson == kept.numerics.poisson);
  CHECK(sim.config.numerics.preconditioner == kept.numerics.preconditioner);
  const time::PressureSolver::Choices choices = sim.scheme->pressure_solver().timed_choices();
  REQUIRE(!choices.empty());
  CHECK(choices[0] == std::pair<std::string, double>{"poisson_path", kept.numerics.poisson == PoissonSolver::fft});
  advance(sim, 1);
}

TEST_CASE("numerics.poisson = auto solves the steps up to the choice as the FFT path does, bitwise", "[run][fft]") {
  Simulation fft = make_simulation("taylor-green-3d", with_poisson("fft"));
  Simulation automatic = make_simulation("taylor-green-3d", small_box);
  // The FFT path's own timed choice (its low-frequency blocks) made alike in both.
  for (Simulation* sim : {&fft, &automatic}) sim->scheme->pressure_solver().repeat_choices({{"fft_leading_blocks", -1.0}});
  advance(fft, 5);
  advance(automatic, 5);
  CHECK(same_velocity_bits(fft, automatic));
}

TEST_CASE("numerics.poisson = auto builds one path where one is named or the mesh is no extrusion", "[run][fft]") {
  for (const std::string poisson : {"fft", "pcg"}) {
    const Simulation sim = make_simulation("taylor-green-3d", with_poisson(poisson));
    CHECK(!sim.pressure_path);
    CHECK(sim.config.numerics.poisson == (poisson == "fft" ? PoissonSolver::fft : PoissonSolver::pcg));
  }
  const Simulation cavity = make_simulation("cavity", {"mesh.cells=[8,8,1]", "output.interval=0"});
  CHECK(!cavity.pressure_path);
  CHECK(cavity.config.numerics.poisson == PoissonSolver::pcg);
}

TEST_CASE("numerics.poisson = auto runs the FFT path alone where the PCG path cannot be built", "[run][fft]") {
  // AIP-3's factor of a periodic Laplacian on 8 cells covers the whole mesh, which is singular: no
  // factor; the FFT path takes AIP-1 on its low frequencies where it can, Jacobi elsewhere.
  std::vector<std::string> overrides = {"mesh.cells=[2,2,2]", "numerics.preconditioner=\"aip3\"", "output.interval=0"};
  Simulation sim = make_simulation("taylor-green-3d", overrides);
  CHECK(!sim.pressure_path);
  CHECK(sim.config.numerics.poisson == PoissonSolver::fft);
  CHECK_THAT(sim.config.numerics.poisson_choice, Catch::Contains("pcg not built beside it") && Catch::Contains("aip_factor"));
  advance(sim, 4);
}

TEST_CASE("A repeated pressure path is kept from step 6 without timing", "[run][fft]") {
  Simulation sim = make_simulation("taylor-green-3d", small_box);
  REQUIRE(sim.pressure_path);
  time::PressureSolver& solver = sim.scheme->pressure_solver();
  CHECK_THAT(solver.repeat_choices({{"poisson_path", 0.0}}), Catch::Contains("pcg from step 6"));
  CHECK_THAT(take_pressure_path(sim), Catch::Contains("as the checkpointed run chose"));
  CHECK(sim.config.numerics.poisson == PoissonSolver::pcg);
  CHECK(sim.config.numerics.preconditioner == cases::Preconditioner::aip1);
  advance(sim, 6);
  CHECK(sim.pressure_path->paths()[1].seconds == 0);  // nothing timed
  CHECK(!sim.pressure_path->paths()[0].solver);       // the FFT path released from step 6
  CHECK(solver.timed_choices()[0] == std::pair<std::string, double>{"poisson_path", 0.0});
  CHECK(solver.repeat_choices({{"poisson_path", 0.0}}).empty());
  CHECK_THROWS_WITH(solver.repeat_choices({{"poisson_path", 1.0}}), Catch::Contains("released"));
}

}  // namespace
}  // namespace miniapp::run::test
