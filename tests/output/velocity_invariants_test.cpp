#include <catch2/catch.hpp>

#include "miniapp/output/cell_fields.hpp"

using miniapp::output::velocity_invariants;

// Gradients of linear velocity fields, G[3 i + j] = ∂u_i/∂x_j, with invariants worked out by hand.
TEST_CASE("velocity invariants of solid-body rotation, shear and strain", "[output]") {
  // u = (−y, x, 0): ω = (0, 0, 2), S = 0, |Ω|² = 2 → Q = 1.
  auto rotation = velocity_invariants({0, -1, 0, 1, 0, 0, 0, 0, 0});
  CHECK(rotation.vorticity_magnitude == Approx(2.0));
  CHECK(rotation.q_criterion == Approx(1.0));
  // u = (y, 0, 0): ω = (0, 0, −1), |S|² = |Ω|² = ½ → Q = 0.
  auto shear = velocity_invariants({0, 1, 0, 0, 0, 0, 0, 0, 0});
  CHECK(shear.vorticity_magnitude == Approx(1.0));
  CHECK(shear.q_criterion == Approx(0.0).margin(1e-15));
  // u = (x, −y, 0): irrotational, |S|² = 2 → Q = −1.
  auto strain = velocity_invariants({1, 0, 0, 0, -1, 0, 0, 0, 0});
  CHECK(strain.vorticity_magnitude == Approx(0.0).margin(1e-15));
  CHECK(strain.q_criterion == Approx(-1.0));
  // u = (z, 0, −x) rotates about y with ω_y = ∂u/∂z − ∂w/∂x = 2.
  CHECK(velocity_invariants({0, 0, 1, 0, 0, 0, -1, 0, 0}).vorticity_magnitude == Approx(2.0));
}

TEST_CASE("compute_velocity_invariants fills both fields per cell", "[output]") {
  std::array<std::vector<double>, 9> gradient;
  for (auto& g : gradient) g.assign(2, 0.0);
  gradient[1] = {-1, 1};  // ∂u/∂y
  gradient[3] = {1, 0};   // ∂v/∂x: cell 0 rotates, cell 1 is sheared
  miniapp::output::CellFields fields;
  compute_velocity_invariants(gradient, fields);
  REQUIRE(fields.vorticity_magnitude.size() == 2);
  CHECK(fields.vorticity_magnitude[0] == Approx(2.0));
  CHECK(fields.q_criterion[0] == Approx(1.0));
  CHECK(fields.vorticity_magnitude[1] == Approx(1.0));
  CHECK(fields.q_criterion[1] == Approx(0.0).margin(1e-15));

  gradient[5].resize(3);
  CHECK_THROWS_WITH(compute_velocity_invariants(gradient, fields), Catch::Contains("component 5"));
}
