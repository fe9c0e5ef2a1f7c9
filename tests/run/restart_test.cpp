// A run interrupted at N/2 steps and restarted from its checkpoint ends bitwise equal to the
// uninterrupted run: every field, the time-step history and diagnostics.csv.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <sstream>

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

void check_restart_is_bitwise(const std::string& name, std::vector<std::string> overrides) {
  ScratchDir straight_dir("restart_straight_" + name), split_dir("restart_split_" + name);
  const auto with = [&](const ScratchDir& dir, long max_steps) {
    auto o = overrides;
    o.push_back("output.directory=" + dir.path().string());
    o.push_back("run.max_steps=" + std::to_string(max_steps));
    return o;
  };
  Simulation straight = make_simulation(name, with(straight_dir, steps));
  run_quietly(straight);
  Simulation first_half = make_simulation(name, with(split_dir, steps / 2));
  run_quietly(first_half);
  Simulation second_half = make_simulation(name, with(split_dir, steps));
  const RunSummary summary = run_quietly(second_half, split_dir.path().string());

  CHECK(summary.steps == steps / 2);
  const auto& a = *straight.fields;
  const auto& b = *second_half.fields;
  CHECK(b.step == steps);
  CHECK(std::memcmp(&a.time, &b.time, sizeof(double)) == 0);
  CHECK(std::memcmp(&a.dt, &b.dt, sizeof(double)) == 0);
  CHECK(std::memcmp(&a.dt_old, &b.dt_old, sizeof(double)) == 0);
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
  CHECK(without_wall_seconds(read_text(split_dir.path() / "diagnostics.csv")) == straight_csv);
}

TEST_CASE("Restart reproduces the uninterrupted run bitwise with LES on a periodic box", "[run][restart]") {
  check_restart_is_bitwise("taylor-green-3d", {"mesh.cells=[8,8,8]", "physics.les=smagorinsky", "output.interval=0",
                                               "output.checkpoint_interval=0"});
}

TEST_CASE("Restart reproduces the uninterrupted run bitwise in the lid-driven cavity", "[run][restart]") {
  check_restart_is_bitwise("cavity", {"mesh.cells=[16,16,1]", "output.interval=0"});
}

TEST_CASE("Restart reproduces the uninterrupted run bitwise with WALE and a moving lid",
          "[run][restart]") {
  // LES with a moving wall: the viscous wall source is applied to ν_s every step.
  check_restart_is_bitwise("cavity-3d", {"mesh.cells=[8,8,8]", "physics.les=wale", "output.interval=0"});
}

}  // namespace
}  // namespace miniapp::run::test
