// The time step guarded from the first step: a moving lid bounds it in a flow at rest at any Reynolds
// number, and a first step that would pass a whole output interval is refused before anything is written.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

TEST_CASE("From rest the lid's speed bounds the time step at any Reynolds number", "[run][time-step]") {
  ScratchDir dir("first_step_lid");
  const double h = 1.0 / 16, lid_speed = 1.0;
  for (const char* re : {"100", "1e6"}) {
    INFO("Re " << re);
    Simulation sim = make_simulation("cavity", {"mesh.cells=[16,16,1]", std::string("physics.re=") + re,
                                                "run.max_steps=3", "output.interval=0",
                                                "output.directory=" + dir.path().string()});
    // A lid cell's convective rate is at least U / (2h): Δt = 0.5 / rate ≤ h / U, whatever ν.
    CHECK(sim.fields->dt > 0);
    CHECK(sim.fields->dt <= h / lid_speed);
    run_quietly(sim);
    CHECK(sim.fields->dt <= h / lid_speed);
  }
}

TEST_CASE("A first step longer than an output interval is refused before the run starts", "[run][time-step]") {
  ScratchDir dir("first_step_interval");
  const std::string out = "output.directory=" + dir.path().string();
  Simulation fixed = make_simulation("cavity", {"mesh.cells=[16,16,1]", "numerics.dt=0.1", "output.interval=0.05", out});
  CHECK_THROWS_WITH(run_quietly(fixed), Catch::Contains("dt = 0.1 (numerics.dt)") &&
                                            Catch::Contains("longer than output.interval = 0.05"));
  Simulation controlled =
      make_simulation("cavity", {"mesh.cells=[16,16,1]", "output.checkpoint_interval=1e-5", out});
  CHECK_THROWS_WITH(run_quietly(controlled), Catch::Contains("(the stability limit at the start)") &&
                                                 Catch::Contains("longer than output.checkpoint_interval = 1e-05"));
  CHECK(controlled.fields->step == 0);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "diagnostics.csv"));
}

}  // namespace
}  // namespace miniapp::run::test
