// numerics.poisson = "auto" on a mesh the FFT path takes: both paths built and timed at set-up, the
// faster kept and named in the case's numerics, the choice a restart can repeat before the first solve.
#include <catch2/catch.hpp>

#include "miniapp/run/pressure_path_choice.hpp"
#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

using cases::PoissonSolver;

const std::vector<std::string> small_box = {"mesh.cells=[8,8,8]", "output.interval=0"};

PoissonSolver other(PoissonSolver path) { return path == PoissonSolver::fft ? PoissonSolver::pcg : PoissonSolver::fft; }

TEST_CASE("numerics.poisson = auto times both pressure paths and keeps the faster", "[run][fft]") {
  Simulation sim = make_simulation("taylor-green-3d", small_box);
  REQUIRE(sim.pressure_path);
  const PressurePathChoice& choice = *sim.pressure_path;
  const PressurePathChoice::Path& kept = choice.chosen();
  const PressurePathChoice::Path& dropped = choice.paths()[kept.numerics.poisson == PoissonSolver::fft ? 1 : 0];
  CHECK(dropped.numerics.poisson == other(kept.numerics.poisson));
  CHECK(kept.seconds > 0);
  CHECK(kept.seconds <= dropped.seconds);
  // The case's numerics name the kept path, its preconditioner and the timing.
  const auto& n = sim.config.numerics;
  CHECK(n.poisson == kept.numerics.poisson);
  CHECK(n.preconditioner == kept.numerics.preconditioner);
  CHECK_THAT(n.poisson_choice, Catch::Contains("timed solves") && Catch::Contains(" fft ") && Catch::Contains(" pcg "));
  const time::PressureSolver::Choices choices = sim.scheme->pressure_solver().timed_choices();
  REQUIRE(!choices.empty());
  CHECK(choices[0] == std::pair<std::string, double>{"poisson_path", n.poisson == PoissonSolver::fft ? 1.0 : 0.0});
  // The PCG path takes its own preconditioner: AMG on the FFT path's low frequencies, AIP-1 for PCG on 512 cells.
  const auto& pcg = choice.paths()[1].numerics;
  CHECK(pcg.poisson == PoissonSolver::pcg);
  CHECK(pcg.preconditioner == cases::Preconditioner::aip1);
  CHECK(choice.paths()[0].numerics.preconditioner == cases::Preconditioner::amg);
  const time::StepReport report = sim.scheme->advance(*sim.fields);
  CHECK(report.poisson.converged);
  CHECK(report.poisson.iterations > 0);
}

TEST_CASE("numerics.poisson = auto times nothing where one path is named or the mesh is no extrusion", "[run][fft]") {
  for (const std::string poisson : {"fft", "pcg"}) {
    std::vector<std::string> overrides = small_box;
    overrides.push_back("numerics.poisson=\"" + poisson + "\"");
    const Simulation sim = make_simulation("taylor-green-3d", overrides);
    CHECK(!sim.pressure_path);
    CHECK(sim.config.numerics.poisson == (poisson == "fft" ? PoissonSolver::fft : PoissonSolver::pcg));
  }
  const Simulation cavity = make_simulation("cavity", {"mesh.cells=[8,8,1]", "output.interval=0"});
  CHECK(!cavity.pressure_path);
  CHECK(cavity.config.numerics.poisson == PoissonSolver::pcg);
}

TEST_CASE("A restart's repeated pressure path replaces the timed one until the first solve", "[run][fft]") {
  Simulation sim = make_simulation("taylor-green-3d", small_box);
  REQUIRE(sim.pressure_path);
  const PoissonSolver timed = sim.config.numerics.poisson;
  const double repeated = timed == PoissonSolver::fft ? 0.0 : 1.0;
  time::PressureSolver& solver = sim.scheme->pressure_solver();
  const std::string message = solver.repeat_choices({{"poisson_path", repeated}});
  CHECK_THAT(message, Catch::Contains("set-up's timing chose"));
  take_pressure_path(sim);
  CHECK(sim.config.numerics.poisson == other(timed));
  CHECK(sim.config.numerics.preconditioner == sim.pressure_path->chosen().numerics.preconditioner);
  CHECK_THAT(sim.config.numerics.poisson_choice, Catch::Contains("as the checkpointed run chose"));
  CHECK(solver.timed_choices()[0].second == repeated);
  CHECK(sim.scheme->advance(*sim.fields).poisson.converged);
  // The other path is released at the first solve: asking for it then is a programming error.
  CHECK(solver.repeat_choices({{"poisson_path", repeated}}).empty());
  CHECK_THROWS_WITH(solver.repeat_choices({{"poisson_path", 1.0 - repeated}}), Catch::Contains("released"));
}

}  // namespace
}  // namespace miniapp::run::test
