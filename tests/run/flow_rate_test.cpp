// physics.bulk_velocity: the channel driven at a held bulk velocity (FlowRateHold) instead of by the
// constant mean pressure gradient, and that default left as it was.
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

// Σ Ω u / Σ Ω over the cells, from the host copies.
double bulk_velocity(const Simulation& sim) {
  const std::vector<double> u = to_mesh_order(sim, sim.fields->u[0]);
  double momentum = 0, volume = 0;
  for (std::size_t c = 0; c < u.size(); ++c) {
    momentum += sim.geometry.cell_volume[c] * u[c];
    volume += sim.geometry.cell_volume[c];
  }
  return momentum / volume;
}

std::vector<std::string> small_channel(const ScratchDir& dir, std::vector<std::string> more) {
  more.insert(more.end(), {"mesh.cells=[8,12,8]", "output.fields=[]", "output.interval=0",
                           "output.checkpoint_interval=0", "output.directory=" + dir.path().string()});
  return more;
}

// The total acceleration driving the flow along x after `steps` steps, each checked to hold U_b.
double settled_force(double target, int steps) {
  ScratchDir dir("flow_rate_held");
  const std::string held = "physics.bulk_velocity=[" + std::to_string(target) + ",0,0]";
  Simulation sim = make_simulation("channel", small_channel(dir, {held}));
  CHECK(bulk_velocity(sim) == Approx(target).epsilon(1e-13));  // from the start
  double worst = 0;
  for (int s = 0; s < steps; ++s) {
    sim.scheme->advance(*sim.fields);
    worst = std::max(worst, std::abs(bulk_velocity(sim) - target) / target);
  }
  INFO("target " << target << ": worst relative deviation " << worst << ", driving force "
                 << sim.config.physics.body_force.x + sim.fields->driving_force.x);
  CHECK(worst < 1e-13);
  CHECK(sim.fields->driving_force.y == 0);
  CHECK(sim.fields->driving_force.z == 0);
  return sim.config.physics.body_force.x + sim.fields->driving_force.x;
}

TEST_CASE("A held bulk velocity stays at its value to round-off, the force follows the wall friction",
          "[run][flow-rate]") {
  // The channel starts at U_b ≈ 15.6 u_τ (Reichardt's profile) driven by f = 1. Held faster, its
  // walls' friction, and so the force, rises; held slower, it falls.
  const double slow = settled_force(10.0, 20), fast = settled_force(20.0, 20);
  CHECK(slow > 0);
  CHECK(fast > 1.5 * slow);
}

TEST_CASE("Without a held bulk velocity the mean pressure gradient drives the flow as before", "[run][flow-rate]") {
  ScratchDir dir("flow_rate_default");
  Simulation sim = make_simulation("channel", small_channel(dir, {}));
  const double start = bulk_velocity(sim);
  for (int s = 0; s < 20; ++s) sim.scheme->advance(*sim.fields);
  CHECK(sim.fields->driving_force.x == 0);
  CHECK(std::abs(bulk_velocity(sim) - start) > 1e-6 * start);  // accelerated or braked, not held
}

}  // namespace
}  // namespace miniapp::run::test
