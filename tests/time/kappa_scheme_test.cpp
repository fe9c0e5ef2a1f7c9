// The κ-scheme in the integrator: on a viscous Taylor-Green vortex, where the eigenvalue controller
// takes κ = 1, the fractional step converges in time as it does with AB2 (κ = ½), with no larger
// error. (Both measure about first order here: the fractional step's own splitting, not the κ-scheme,
// which is second order alone: time_step_control_test.)
#include <catch2/catch.hpp>

#include <cmath>
#include <iostream>

#include "tests/time/periodic_flow.hpp"

namespace miniapp::time::test {
namespace {

// ν = 1 on 16² hexahedra: diffusion dominates, where κ = 1 has the widest region.
constexpr double viscosity = 1.0, end_time = 0.5;

HostVelocity velocity_at_end(double dt, double max_kappa) {
  PeriodicFlow flow(periodic_slab(CellShape::hex, 16), viscosity, dt, 1e-12, max_kappa);
  flow.advance(std::lround(end_time / dt));
  REQUIRE(flow.time() == Approx(end_time));
  return flow.velocity();
}

double distance(const HostVelocity& a, const HostVelocity& b) {
  double sum = 0;
  for (int d = 0; d < 3; ++d)
    for (std::size_t i = 0; i < a[d].size(); ++i) sum += (a[d][i] - b[d][i]) * (a[d][i] - b[d][i]);
  return std::sqrt(sum);
}

TEST_CASE("The kappa-scheme converges in time as AB2 does in the fractional step", "[time][time-step]") {
  double order[2], error[2];
  const double max_kappas[] = {adams_bashforth_kappa, 1.0};
  for (int k = 0; k < 2; ++k) {
    const HostVelocity reference = velocity_at_end(0.000625, max_kappas[k]);
    const double coarse = distance(velocity_at_end(0.01, max_kappas[k]), reference);
    const double fine = distance(velocity_at_end(0.005, max_kappas[k]), reference);
    order[k] = std::log2(coarse / fine), error[k] = coarse;
    std::cout << "fractional step, max_kappa " << max_kappas[k] << ": temporal error at dt 0.01 " << coarse
              << ", at 0.005 " << fine << ", order " << order[k] << "\n";
  }
  CHECK(order[1] > order[0] - 0.1);
  CHECK(error[1] < error[0]);
}

}  // namespace
}  // namespace miniapp::time::test
