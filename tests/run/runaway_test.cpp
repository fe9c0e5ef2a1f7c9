// The run-health check against a solution that runs away without turning non-finite or exploding the
// CFL number (miniapp/run/energy_watch.hpp): its bound from the case's velocity scales, a run forced
// unstable, which stops with the checkpoint before it restartable, and the normal starts of every
// shipped case, which pass.
#include <catch2/catch.hpp>

#include <fstream>
#include <numeric>

#include "miniapp/output/checkpoint.hpp"
#include "miniapp/run/energy_watch.hpp"
#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

// (step, kinetic energy) of each row of `dir`'s diagnostics.csv.
std::vector<std::pair<long, double>> energy_rows(const std::filesystem::path& dir) {
  std::ifstream file(dir / "diagnostics.csv");
  std::string line;
  std::getline(file, line);
  std::vector<std::string> header;
  for (std::istringstream names(line); std::getline(names, line, ',');) header.push_back(line);
  const auto column = std::find(header.begin(), header.end(), "kinetic_energy") - header.begin();
  std::vector<std::pair<long, double>> rows;
  while (std::getline(file, line)) {
    std::istringstream cells(line);
    std::vector<std::string> values;
    for (std::string cell; std::getline(cells, cell, ',');) values.push_back(cell);
    REQUIRE(values.size() > static_cast<std::size_t>(column));
    rows.emplace_back(std::stol(values[0]), std::stod(values[column]));
  }
  return rows;
}

double energy_at(const std::filesystem::path& dir, long step) {
  for (const auto& [s, energy] : energy_rows(dir))
    if (s == step) return energy;
  FAIL("no diagnostics row of step " << step);
  return 0;
}

cases::CaseConfig shipped(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return cases::load_case(cases::case_path(name), overrides);
}

TEST_CASE("The largest velocity scale of a case and where it comes from", "[run][health]") {
  const VelocityScale cavity = largest_velocity_scale(shipped("cavity", {"boundary.ymax.velocity=[2,0,0]"}));
  CHECK(cavity.speed == 2);
  CHECK(cavity.source == "boundary.ymax.velocity");
  // The channel's body force u_τ²/δ at Re_τ = 180 drives a laminar flow of 180 u_τ at most (|f| δ² / ν).
  const VelocityScale channel = largest_velocity_scale(shipped("channel"));
  CHECK(channel.speed == Approx(180));
  CHECK_THAT(channel.source, Catch::StartsWith("physics.body_force"));
  CHECK(largest_velocity_scale(shipped("taylor-green-2d", {"physics.reference_velocity=3"})).speed == 3);
}

TEST_CASE("The energy watch flags an energy above four times the case's and names the growth", "[run][health]") {
  EnergyWatch watch({1.0, "physics.reference_velocity"}, 2.0);  // ½ V U² = 1
  CHECK(watch.record(1, 0.5).empty());
  CHECK(watch.limit() == 4);
  CHECK(watch.record(2, 1.0).empty());
  CHECK(watch.record(3, 3.9).empty());
  const std::string why = watch.record(4, 4.2);
  CHECK_THAT(why, Catch::Contains("ran away: 4.2, 4.2 times the most this case allows (1:") &&
                      Catch::Contains("U = 1 from physics.reference_velocity") &&
                      Catch::Contains("grew 8.4-fold in 3 steps, from 0.5 at step 1"));
  // A first row above ½ V U² (an energetic initial field) sets the bound.
  EnergyWatch energetic({1.0, "physics.reference_velocity"}, 2.0);
  CHECK(energetic.record(1, 10).empty());
  CHECK(energetic.record(2, 39).empty());
  CHECK_FALSE(energetic.record(3, 41).empty());
}

TEST_CASE("A runaway that the CFL number does not see stops the run, the checkpoint before it restarts",
          "[run][health]") {
  ScratchDir dir("runaway_diffusive");
  // ν = 1 on 16²: Δt = 6e-4 is 1.85 times the diffusive limit, a constant CFL number while the cell
  // velocity's checkerboard grows about 2.4-fold a step (the CFL number explodes only once convection
  // takes over, some 25 steps after the energy passed its bound). A checkpoint every 10 steps.
  const std::vector<std::string> common{"mesh.cells=[16,16,1]", "physics.re=1", "output.interval=0",
                                        "output.checkpoint_interval=0.006", "output.fields=[]",
                                        "output.directory=" + dir.path().string()};
  auto unstable = common;
  unstable.insert(unstable.end(), {"numerics.dt=6e-4", "run.max_steps=1000"});
  Simulation sim = make_simulation("cavity", unstable);
  const std::string message = stop_message(sim);
  INFO(message);
  REQUIRE_THAT(message, Catch::Contains("the kinetic energy ran away"));
  const long stop = sim.fields->step;
  const long last_checkpoint = stop / 10 * 10 == stop ? stop - 10 : stop / 10 * 10;
  CHECK_THAT(message, Catch::StartsWith("step " + std::to_string(stop) + ", t = ") &&
                          Catch::Contains("the last checkpoint (step " + std::to_string(last_checkpoint) + ") in " +
                                          dir.path().string() + " is left intact; restart from it") &&
                          Catch::Contains("a smaller numerics.dt (0.0006 took 1.8"));
  const double energy_at_checkpoint = energy_at(dir.path(), last_checkpoint);

  // From the checkpoint, a stable Δt damps the checkerboard at once: the energy falls below the
  // checkpoint's and stays there while the flow develops, and no check fires.
  auto stable = common;
  stable.insert(stable.end(), {"numerics.dt=2e-4", "run.max_steps=" + std::to_string(last_checkpoint + 40)});
  Simulation restarted = make_simulation("cavity", stable);
  run_quietly(restarted, dir.path().string());
  CHECK(restarted.fields->step == last_checkpoint + 40);
  double most = 0;
  for (const auto& [step, energy] : energy_rows(dir.path()))
    if (step > last_checkpoint) most = std::max(most, energy);
  CHECK(most < 0.8 * energy_at_checkpoint);
}

TEST_CASE("A state the run saves is checked even between diagnostics rows: no checkpoint holds a runaway",
          "[run][health]") {
  ScratchDir dir("runaway_sparse_rows");
  // As above, with a row every 7 steps: the energy passes its bound at step 30, a checkpoint step
  // without a row, which the run checks before writing and then stops (the next row, 35, is too late).
  Simulation sim = make_simulation(
      "cavity", {"mesh.cells=[16,16,1]", "physics.re=1", "numerics.dt=6e-4", "run.max_steps=1000",
                 "output.interval=0", "output.checkpoint_interval=0.006", "output.diagnostics_interval=7",
                 "output.fields=[]", "output.directory=" + dir.path().string()});
  CHECK_THROWS_WITH(run_quietly(sim), Catch::StartsWith("step 30, t = ") &&
                                          Catch::Contains("the kinetic energy ran away") &&
                                          Catch::Contains("the last checkpoint (step 20)"));
  CHECK(std::filesystem::exists(output::checkpoint_path(dir.path(), 20, 0)));
  CHECK_FALSE(std::filesystem::exists(output::checkpoint_path(dir.path(), 30, 0)));
}

// Small meshes of the shipped cases: the generated ones coarsened, the cylinders on the coarse mesh.
std::vector<std::string> small(const std::string& name) {
  const cases::CaseConfig c = shipped(name);
  if (c.mesh.generator == cases::MeshGenerator::file) return {"mesh.file=meshes/cylinder_coarse.msh", "mesh.layers=2"};
  return {c.mesh.cells[2] == 1 ? "mesh.cells=[16,16,1]" : "mesh.cells=[12,12,8]"};
}

TEST_CASE("The normal start of every shipped case passes the health check with room to spare", "[run][health]") {
  for (const std::string& name : cases::list_cases()) {
    ScratchDir dir("runaway_normal_" + name);
    std::vector<std::string> overrides = small(name);
    overrides.insert(overrides.end(), {"run.max_steps=25", "output.interval=0", "output.fields=[]",
                                       "output.directory=" + dir.path().string()});
    Simulation sim = make_simulation(name, overrides);
    INFO(name);
    CHECK_NOTHROW(run_quietly(sim));
    const double volume = std::accumulate(sim.geometry.cell_volume.begin(), sim.geometry.cell_volume.end(), 0.0);
    EnergyWatch watch(largest_velocity_scale(sim.config), volume);
    double most = 0;
    for (const auto& [step, energy] : energy_rows(dir.path())) {
      CHECK(watch.record(step, energy).empty());
      most = std::max(most, energy);
    }
    CHECK(most < watch.limit() / 2);
  }
}

}  // namespace
}  // namespace miniapp::run::test
