// The turbulent channel's start: mean profile, periodic and divergence-free perturbations.
#include <catch2/catch.hpp>

#include <cmath>

#include "miniapp/time/channel_start.hpp"

namespace miniapp::time::test {
namespace {

constexpr double pi = 3.141592653589793;

TEST_CASE("Reichardt's profile: linear at the wall, logarithmic far from it", "[time][channel]") {
  CHECK(reichardt_velocity(0.0) == 0.0);
  CHECK(reichardt_velocity(0.5) == Approx(0.5).epsilon(0.03));  // U⁺ = y⁺ in the viscous sublayer
  // The log law U⁺ = ln(y⁺)/0.41 + B: Reichardt's constants give B = 7.8 + ln(0.41)/0.41 ≈ 5.6
  for (double y : {100.0, 180.0}) CHECK(reichardt_velocity(y) - std::log(y) / 0.41 == Approx(5.67).margin(0.03));
}

TEST_CASE("The channel start: the mean profile with periodic streaks that average out", "[time][channel]") {
  const ChannelBox box{-1.0, 1.0, 2 * pi, pi, 1.0, 1.0 / 180};
  const double y = -1.0 + 30.0 / 180;  // y⁺ = 30 from the lower wall: the streaks' peak
  std::vector<Vec3> points;
  constexpr int n = 64;
  for (int i = 0; i < n; ++i)  // a line along z and one along x through it
    points.push_back({0.3, y, box.length_z * i / n});
  for (int i = 0; i < n; ++i) points.push_back({box.length_x * i / n, y, 0.7});
  points.push_back({0.3, 1.0 - 30.0 / 180, 0.0});  // the mirror point at the upper wall
  points.push_back({0.3, y, box.length_z});        // one period along z from the first point
  const HostVelocity u = turbulent_channel_start(points, box, 4.0);

  double mean_u = 0, mean_w = 0, max_streak = 0;
  for (int i = 0; i < n; ++i) {
    mean_u += u[0][i] / n;
    mean_w += u[2][n + i] / n;
    max_streak = std::max(max_streak, std::abs(u[0][i] - reichardt_velocity(30.0)));
  }
  CHECK(mean_u == Approx(reichardt_velocity(30.0)).epsilon(1e-12));  // streaks average out across the span
  CHECK(mean_w == Approx(0.0).margin(1e-12));
  CHECK(max_streak == Approx(4.0).epsilon(0.01));  // amplitude A u_τ at y⁺ = 30
  CHECK(u[0][2 * n] == Approx(u[0][0]));           // the same at both walls
  CHECK(u[0][2 * n + 1] == Approx(u[0][0]));       // periodic in z
  for (const auto& v : u[1]) CHECK(v == 0.0);
}

}  // namespace
}  // namespace miniapp::time::test
