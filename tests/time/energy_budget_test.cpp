// The discrete kinetic-energy budget of a step (FlowDiagnostics) on the decaying Taylor-Green vortex,
// whose energy decays as E(t) = E(0) exp(−4νt) (2D, wavenumber 1 in x and y).
#include <catch2/catch.hpp>

#include <cmath>

#include "tests/time/periodic_flow.hpp"

namespace miniapp::time::test {
namespace {

TEST_CASE("the viscous dissipation of the discrete operator carries the decay of the viscous vortex", "[time][energy]") {
  constexpr double nu = 0.05, dt = 0.005;
  PeriodicFlow flow(periodic_slab(CellShape::hex, 32), nu, dt);
  CHECK(flow.integrals().budget.decay_rate == 0);  // before the first step: no budget
  flow.advance(20);
  const FlowIntegrals i = flow.integrals();
  const EnergyBudget& b = i.budget;
  INFO("E " << i.kinetic_energy << " decay " << b.decay_rate << " viscous " << b.viscous << " numerical "
            << b.numerical() << " convection " << b.convection_power);
  // The continuous rate 4νE, to the scheme's second-order spatial error on 32².
  CHECK(b.viscous == Approx(4 * nu * i.kinetic_energy).epsilon(0.01));
  CHECK(b.decay_rate == Approx(b.viscous).epsilon(0.01));
  // Periodic, no model, no source: the rest of the decay is the time integration's and projection's.
  CHECK(b.model == 0);
  CHECK(b.source_power == 0);
  CHECK(std::abs(b.convection_power) < 1e-6 * b.viscous);  // C is skew-symmetric
  CHECK(std::abs(b.numerical()) < 0.01 * b.viscous);
}

TEST_CASE("the enstrophy is that of the full velocity gradient, twice the energy on hexahedra", "[time][energy]") {
  // u = (sin x cos y, −cos x sin y): ω_z = 2 sin x sin y, so ½∫|ω|² = 2 · ½∫|u|² (wavenumber² 2),
  // to the cell gradient's second-order error on uniform hexahedra (larger on simplices).
  for (const CellShape shape : {CellShape::hex, CellShape::tet, CellShape::prism}) {
    CAPTURE(name(shape));
    PeriodicFlow flow(periodic_slab(shape, 32), 0.05, 0.01);
    flow.advance(1);
    const FlowIntegrals i = flow.integrals();
    REQUIRE(i.enstrophy);
    REQUIRE(i.max_divergence);
    CHECK(*i.enstrophy == Approx(flow.enstrophy_from_gradient()).epsilon(1e-12));
    if (shape == CellShape::hex) CHECK(*i.enstrophy == Approx(2 * i.kinetic_energy).epsilon(0.02));
  }
}

TEST_CASE("a row without the gradient terms has the same energy and budget", "[time][energy]") {
  PeriodicFlow flow(periodic_slab(CellShape::tet, 8), 0.05, 0.01);
  flow.advance(2);
  const FlowIntegrals full = flow.integrals_afresh();
  const FlowIntegrals lean = flow.integrals_afresh(false);
  CHECK_FALSE(lean.enstrophy);
  CHECK_FALSE(lean.max_divergence);
  CHECK(lean.kinetic_energy == full.kinetic_energy);
  CHECK(lean.budget.viscous == full.budget.viscous);
  CHECK(lean.budget.numerical() == full.budget.numerical());
}

TEST_CASE("without viscosity, the whole decay is numerical and shrinks with the time step", "[time][energy]") {
  double numerical[2];
  const double dts[] = {0.01, 0.005};
  for (int r = 0; r < 2; ++r) {
    PeriodicFlow flow(periodic_slab(CellShape::tet, 16), 0.0, dts[r]);
    flow.advance(std::lround(0.5 / dts[r]));
    const EnergyBudget b = flow.integrals().budget;
    INFO("convection " << b.convection_power << " decay " << b.decay_rate);
    CHECK(b.viscous == 0);
    CHECK(std::abs(b.convection_power) < 1e-3 * b.decay_rate);
    CHECK(b.numerical() == Approx(b.decay_rate));
    numerical[r] = b.numerical();
    CHECK(numerical[r] > 0);  // the projection removes energy, never adds it
  }
  CHECK(numerical[1] < 0.7 * numerical[0]);  // first order in Δt: about half
}

TEST_CASE("a row every step reads the host once and takes the old energy from the previous row", "[time][energy]") {
  PeriodicFlow flow(periodic_slab(CellShape::tet, 8), 0.05, 0.01);
  flow.integrals();
  for (int step = 1; step <= 3; ++step) {
    flow.advance(1);
    const std::uint64_t reads = flow.executor().counters().host_reads();
    const FlowIntegrals row = flow.integrals();
    // Its dots and the maximum divergence in one read.
    CHECK(flow.executor().counters().host_reads() - reads == 1);
    // Eⁿ⁻¹ remembered from the previous row gives the budget of recomputing it, bitwise.
    const FlowIntegrals afresh = flow.integrals_afresh();
    CHECK(row.kinetic_energy == afresh.kinetic_energy);
    CHECK(row.budget.decay_rate == afresh.budget.decay_rate);
    CHECK(row.budget.viscous == afresh.budget.viscous);
    CHECK(row.budget.numerical() == afresh.budget.numerical());
    CHECK(row.enstrophy == afresh.enstrophy);
    CHECK(row.max_divergence == afresh.max_divergence);
  }
}

}  // namespace
}  // namespace miniapp::time::test
