// A run interrupted at N/2 steps and restarted from its checkpoint, or continued to a later end time,
// ends bitwise equal to the uninterrupted run: every field, the time-step history and diagnostics.csv.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <sstream>

#include "miniapp/output/checkpoint.hpp"
#include "miniapp/output/checkpoint_generations.hpp"
#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

constexpr long steps = 12;

// Bitwise equality (memcmp: 0.0 and -0.0 differ, as they would in the next step's arithmetic).
bool same_bits(const Vector& a, const Vector& b) {
  const auto x = a.to_host(), y = b.to_host();
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

// diagnostics.csv without its last column (wall-clock seconds per step, which no rerun reproduces).
std::string without_wall_seconds(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, out;
  while (std::getline(in, line)) out += line.substr(0, line.rfind(',')) + "\n";
  return out;
}

// The resumed run ends bitwise where the straight one did: every field, the time-step history, and
// diagnostics.csv (`steps` lines after the header).
void check_same_end(const Simulation& straight, const ScratchDir& straight_dir, const Simulation& resumed,
                    const ScratchDir& resumed_dir, long steps) {
  const auto& a = *straight.fields;
  const auto& b = *resumed.fields;
  CHECK(b.step == a.step);
  CHECK(std::memcmp(&a.time, &b.time, sizeof(double)) == 0);
  CHECK(std::memcmp(&a.dt, &b.dt, sizeof(double)) == 0);
  CHECK(std::memcmp(&a.dt_old, &b.dt_old, sizeof(double)) == 0);
  CHECK(std::memcmp(&a.driving_force, &b.driving_force, sizeof(Vec3)) == 0);
  for (int d = 0; d < 3; ++d) {
    CHECK(same_bits(a.u[d], b.u[d]));
    CHECK(same_bits(a.u_old[d], b.u_old[d]));
  }
  CHECK(same_bits(a.pressure, b.pressure));
  CHECK(same_bits(a.face_velocity, b.face_velocity));
  CHECK(same_bits(a.face_viscosity, b.face_viscosity));
  CHECK(same_bits(a.eddy_viscosity, b.eddy_viscosity));
  const std::string straight_csv = without_wall_seconds(read_text(straight_dir.path() / "diagnostics.csv"));
  CHECK(std::count(straight_csv.begin(), straight_csv.end(), '\n') == steps + 1);
  CHECK(without_wall_seconds(read_text(resumed_dir.path() / "diagnostics.csv")) == straight_csv);
  // The observers' files and the averages' sums (checkpoint arrays) continue bitwise too.
  for (const char* file : {"probes.csv", "forces_ymax.csv"})
    if (std::filesystem::exists(straight_dir.path() / file))
      CHECK(read_text(resumed_dir.path() / file) == read_text(straight_dir.path() / file));
  const auto fingerprint = output::mesh_fingerprint(straight.mesh);
  const long newest = output::complete_generations(straight_dir.path()).front();
  REQUIRE(output::complete_generations(resumed_dir.path()).front() == newest);
  const auto straight_checkpoint = output::read_checkpoint(straight_dir.path(), newest, 0, 1, fingerprint);
  const auto resumed_checkpoint = output::read_checkpoint(resumed_dir.path(), newest, 0, 1, fingerprint);
  for (const auto& [name, values] : straight_checkpoint.arrays) {
    if (!name.starts_with("statistics")) continue;
    const auto* other = resumed_checkpoint.find(name);
    REQUIRE(other);
    CHECK(std::memcmp(values.data(), other->data(), values.size() * sizeof(double)) == 0);
  }
}

std::vector<std::string> with(std::vector<std::string> overrides, const ScratchDir& dir, const std::string& end) {
  overrides.push_back("output.directory=" + dir.path().string());
  overrides.push_back(end);
  return overrides;
}

// `adjust`, when given, changes the straight run and the first half after their set-up (not the second
// half, which must take what it needs from the checkpoint).
void check_restart_is_bitwise(const std::string& name, const std::vector<std::string>& overrides,
                              const std::function<void(Simulation&)>& adjust = {}) {
  ScratchDir straight_dir("restart_straight_" + name), split_dir("restart_split_" + name);
  const auto max_steps = [](long n) { return "run.max_steps=" + std::to_string(n); };
  Simulation straight = make_simulation(name, with(overrides, straight_dir, max_steps(steps)));
  if (adjust) adjust(straight);
  run_quietly(straight);
  Simulation first_half = make_simulation(name, with(overrides, split_dir, max_steps(steps / 2)));
  if (adjust) adjust(first_half);
  // The first half solves as the straight run chose by timing (a busy machine may time its own set-up
  // otherwise); the second half must take that choice from the checkpoint.
  first_half.scheme->pressure_solver().repeat_choices(straight.scheme->pressure_solver().timed_choices());
  run_quietly(first_half);
  Simulation second_half = make_simulation(name, with(overrides, split_dir, max_steps(steps)));
  const RunSummary summary = run_quietly(second_half, split_dir.path().string());
  CHECK(summary.steps == steps / 2);
  CHECK(second_half.fields->step == steps);
  CHECK(second_half.scheme->pressure_solver().timed_choices() == straight.scheme->pressure_solver().timed_choices());
  check_same_end(straight, straight_dir, second_half, split_dir, steps);
}

TEST_CASE("Restart reproduces the uninterrupted run bitwise with LES on a periodic box", "[run][restart]") {
  check_restart_is_bitwise("taylor-green-3d", {"mesh.cells=[8,8,8]", "physics.les=smagorinsky", "output.interval=0",
                                               "output.checkpoint_interval=0"});
}

TEST_CASE("Restart on the FFT path keeps the checkpointed run's timed preconditioner choice", "[run][restart][fft]") {
  // The solves of steps 2 and 3 time the frequency preconditioner's configurations and keep the
  // fastest from step 4, so a restart on a busy machine may time another one best. Both runs are made
  // to use AMG on the two leading blocks: the restart (at step 6) must take it back from the
  // checkpoint, without timing its own.
  const time::PressureSolver::Choices two_amg_blocks = {{"fft_leading_blocks", -2.0}};
  const auto use_other_choice = [&](Simulation& sim) {
    time::PressureSolver& solver = sim.scheme->pressure_solver();
    solver.repeat_choices(two_amg_blocks);
    REQUIRE(solver.timed_choices() == two_amg_blocks);
  };
  check_restart_is_bitwise("taylor-green-3d",
                           {"mesh.cells=[8,8,8]", "numerics.poisson=\"fft\"", "output.interval=0",
                            "output.checkpoint_interval=0"},
                           use_other_choice);
}

TEST_CASE("Restart keeps the checkpointed run's pressure path where numerics.poisson = auto chose one",
          "[run][restart][fft]") {
  // The run times the FFT path against PCG at steps 4 and 5 and keeps the faster; the interrupted
  // run is made to keep PCG: the restart (at step 6) must take it back from the checkpoint,
  // whatever its own timing would choose.
  const auto keep_pcg = [](Simulation& sim) {
    sim.scheme->pressure_solver().repeat_choices({{"poisson_path", 0.0}});
    take_pressure_path(sim);
    REQUIRE(sim.config.numerics.poisson == cases::PoissonSolver::pcg);
  };
  check_restart_is_bitwise("taylor-green-3d", {"mesh.cells=[8,8,8]", "output.interval=0", "output.checkpoint_interval=0"},
                           keep_pcg);
}

TEST_CASE("Restart reproduces the uninterrupted run bitwise in the lid-driven cavity", "[run][restart]") {
  // With every observer: averages from the start (samples in both halves), forces on the lid, a probe.
  check_restart_is_bitwise("cavity", {"mesh.cells=[16,16,1]", "output.interval=0", "statistics.start_time=0",
                                      "statistics.sample_interval=4",
                                      "forces.ymax.reference_area=0.015625", "probes.centre.position=[0.5,0.5,0.007]"});
}

TEST_CASE("Restart reproduces the uninterrupted run bitwise with WALE and a moving lid",
          "[run][restart]") {
  // LES with a moving wall: the viscous wall source is applied to ν_s every step.
  check_restart_is_bitwise("cavity-3d", {"mesh.cells=[8,8,8]", "physics.les=wale", "output.interval=0"});
}

TEST_CASE("Restart reproduces the uninterrupted run bitwise with a held bulk velocity", "[run][restart]") {
  // The flow-rate hold's driving force is part of the state (a checkpoint scalar).
  check_restart_is_bitwise("channel", {"mesh.cells=[8,12,8]", "physics.bulk_velocity=[15,0,0]", "output.interval=0",
                                       "output.fields=[]"});
}

TEST_CASE("A later end time continues a finished run as one run would", "[run][restart]") {
  // The first run makes its last steps equal to land on t = 0.3; its checkpoint holds the state before
  // them, from which the run to t = 0.5 takes the steps the straight run takes.
  ScratchDir straight_dir("restart_extend_straight"), split_dir("restart_extend_split");
  const std::vector<std::string> cavity{"mesh.cells=[16,16,1]", "output.interval=0", "output.checkpoint_interval=0"};
  Simulation straight = make_simulation("cavity", with(cavity, straight_dir, "run.end_time=0.5"));
  run_quietly(straight);
  Simulation first = make_simulation("cavity", with(cavity, split_dir, "run.end_time=0.3"));
  run_quietly(first);
  CHECK(first.fields->time == Approx(0.3).epsilon(1e-14));
  // The newest generation is the step before the landing steps (read back whole): several of them.
  const long saved = output::complete_generations(split_dir.path()).front();
  CHECK(saved < first.fields->step - 1);
  const auto checkpoint = output::read_checkpoint(split_dir.path(), saved, 0, 1, output::mesh_fingerprint(first.mesh));
  CHECK(checkpoint.step == saved);
  Simulation extended = make_simulation("cavity", with(cavity, split_dir, "run.end_time=0.5"));
  run_quietly(extended, split_dir.path().string());
  CHECK(extended.fields->time == Approx(0.5).epsilon(1e-14));
  check_same_end(straight, straight_dir, extended, split_dir, straight.fields->step);
}

}  // namespace
}  // namespace miniapp::run::test
