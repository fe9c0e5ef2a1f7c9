// A run whose solution stops being finite stops with a clear message (step, time, the field and cell
// first not finite, what is left to restart from), and the last checkpoint it wrote stays intact.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "miniapp/output/checkpoint.hpp"
#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

std::vector<std::string> cavity(const ScratchDir& dir, std::vector<std::string> more) {
  more.insert(more.end(), {"mesh.cells=[16,16,1]", "output.interval=0", "output.directory=" + dir.path().string()});
  return more;
}

void check_finite(const output::CheckpointData& data) {
  for (const auto& [array, values] : data.arrays) {
    INFO("checkpoint array " << array);
    CHECK(std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); }));
  }
}

TEST_CASE("An unstable fixed time step stops the run and keeps the last healthy checkpoint", "[run][blow-up]") {
  ScratchDir dir("blow_up_unstable");
  // Δt = 0.1 is unstable on 16²: from the fifth step the kinetic energy grows about fivefold a step. A
  // checkpoint every step: the last one written is the step before the stop.
  Simulation sim = make_simulation(
      "cavity", cavity(dir, {"numerics.dt=0.1", "output.checkpoint_interval=0.1", "run.max_steps=1000"}));
  const std::string message = stop_message(sim);
  INFO(message);
  std::cout << "diverging cavity run: " << message << "\n";
  REQUIRE_FALSE(message.empty());
  CHECK_THAT(message, Catch::Contains("step " + std::to_string(sim.fields->step)));
  CHECK_THAT(message, Catch::Contains("the last checkpoint (step " + std::to_string(sim.fields->step - 1) + ") in " +
                                      dir.path().string() + " is left intact"));
  const bool not_finite = message.find("no longer finite") != std::string::npos;
  const bool cfl_exploded = message.find("CFL number exploded") != std::string::npos;
  const bool energy_ran_away = message.find("kinetic energy ran away") != std::string::npos;
  CHECK((not_finite || cfl_exploded || energy_ran_away));
  const auto data =
      output::read_checkpoint(dir.path(), sim.fields->step - 1, 0, 1, output::mesh_fingerprint(sim.mesh));
  check_finite(data);
}

TEST_CASE("A huge fixed time step after a restart stops at once and leaves the checkpoint unchanged",
          "[run][blow-up]") {
  ScratchDir dir("blow_up_restart");
  Simulation healthy = make_simulation("cavity", cavity(dir, {"run.max_steps=5"}));
  run_quietly(healthy);
  const auto checkpoint = output::checkpoint_path(dir.path(), 5, 0);
  const std::string before = read_text(checkpoint);

  Simulation blowing = make_simulation("cavity", cavity(dir, {"run.max_steps=10", "numerics.dt=1e6",
                                                              "output.checkpoint_interval=1e6"}));
  CHECK_THROWS_WITH(run_quietly(blowing, dir.path().string()),
                    Catch::Contains("step 6") && Catch::Contains("the last checkpoint (step 5)") &&
                        Catch::Contains("is left intact"));
  CHECK(read_text(checkpoint) == before);
  const auto data = output::read_checkpoint(dir.path(), 5, 0, 1, output::mesh_fingerprint(blowing.mesh));
  CHECK(data.step == 5);
  check_finite(data);
}

TEST_CASE("A solution that overflows stops the run as no longer finite, naming the field and cell", "[run][blow-up]") {
  ScratchDir dir("blow_up_overflow");
  // |u|² of a vortex of amplitude 1e200 overflows: the kinetic energy is infinite after the first step,
  // while the tiny Δt keeps the CFL number harmless, so the finiteness check is the one that stops it.
  Simulation sim = make_simulation("taylor-green-2d", {"mesh.cells=[8,8,1]", "initial.amplitude=1e200",
                                                       "numerics.dt=1e-210", "output.interval=0",
                                                       "output.directory=" + dir.path().string()});
  // No checkpoint exists yet (the first comes at the end): the message must not claim one.
  CHECK_THROWS_WITH(run_quietly(sim), Catch::Contains("step 1,") && Catch::Contains("no longer finite") &&
                                          Catch::Contains(" first at cell ") && Catch::Contains("(centroid ") &&
                                          Catch::Contains("no checkpoint has been written") &&
                                          Catch::Contains("the step was within its stability limit"));
}

}  // namespace
}  // namespace miniapp::run::test
