#include <cmath>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "miniapp/predict/cost_curve.hpp"

namespace miniapp::predict {
namespace {

TEST_CASE("A linear cost is reproduced exactly at any size", "[predict]") {
  const double latency = 3e-6, bandwidth = 12e9;
  const auto cost = [&](double b) { return latency + b / bandwidth; };
  const CostCurve curve({{1e5, cost(1e5)}, {1e3, cost(1e3)}, {1e7, cost(1e7)}});  // any order
  CHECK(curve.latency() == Approx(latency).epsilon(1e-12));
  for (const double b : {1.0, 500.0, 1e3, 4321.0, 2e5, 1e7, 1e9}) {
    INFO("bytes " << b);
    CHECK(curve.seconds(b) == Approx(cost(b)).epsilon(1e-12));
    CHECK(curve.bandwidth(b) == Approx(bandwidth).epsilon(1e-12));
  }
  CHECK(curve.seconds(0) == 0);
}

TEST_CASE("Points of different calls give the cost per call and the bandwidth exactly", "[predict]") {
  // An iteration whose calls grow with its size (an AMG hierarchy's levels), the second point with
  // fewer bytes per call than the first.
  const double per_call = 4e-6, bandwidth = 2e12;
  const auto cost = [&](double b, double calls) { return per_call * calls + b / bandwidth; };
  std::vector<CostPoint> points;
  for (const auto& [b, calls] : {std::pair{1e6, 30.0}, {1.5e6, 50.0}, {1e8, 58.0}, {1e9, 66.0}})
    points.push_back({b, cost(b, calls), calls});
  const CostCurve curve(points);
  CHECK(curve.latency() == Approx(per_call).epsilon(1e-12));
  for (const CostPoint& p : points) CHECK(curve.seconds(p.bytes, p.calls) == Approx(p.seconds).epsilon(1e-12));
  for (const double b : {1e3, 3e6, 1e10}) {
    INFO("bytes " << b);
    CHECK(curve.bandwidth(b) == Approx(bandwidth).epsilon(1e-12));
    CHECK(curve.seconds(b, 41) == Approx(cost(b, 41)).epsilon(1e-12));
  }
  // The what-if keeps each point's calls.
  const CostCurve fast = curve.scaled(2.0, 1e-6);
  for (const CostPoint& p : points)
    CHECK(fast.seconds(p.bytes, p.calls) == Approx(1e-6 * p.calls + p.bytes / (2 * bandwidth)).epsilon(1e-12));
}

TEST_CASE("A measured curve goes through every calibration point", "[predict]") {
  // Cache step: the middle size runs faster per byte than both neighbours.
  const std::vector<CostPoint> points{{1e3, 2e-6}, {1e5, 6e-6}, {1e7, 2e-3}};
  const CostCurve curve(points);
  for (const CostPoint& p : points) CHECK(curve.seconds(p.bytes) == Approx(p.seconds).epsilon(1e-12));
  CHECK(curve.latency() >= 0);
  CHECK(curve.latency() < 2e-6);
  // Between points, the bandwidth lies between its neighbours'.
  const double b = curve.bandwidth(1e6);
  CHECK(b <= std::max(curve.bandwidth(1e5), curve.bandwidth(1e7)));
  CHECK(b >= std::min(curve.bandwidth(1e5), curve.bandwidth(1e7)));
}

TEST_CASE("A point that its calls' latency covers does not make its interval free", "[predict]") {
  // An iteration unit: the two smallest points fix the latency per call; the third's 20 calls take
  // all of its time at that latency, so its own bandwidth is clamped very large; the fourth moves
  // bytes at 1e12 bytes/s besides its calls.
  const double per_call = 3e-6, bandwidth = 1e12;
  const std::vector<CostPoint> points{{1e5, 10 * per_call + 1e5 / bandwidth, 10},
                                      {2e5, 10 * per_call + 2e5 / bandwidth, 10},
                                      {4e7, 20 * per_call, 20},
                                      {8e7, 20 * per_call + 8e7 / bandwidth, 20}};
  const CostCurve curve(points);
  // Every point reproduced, the third within the clamp (its bytes keep 0.1 % of its time).
  for (const CostPoint& p : points) CHECK(curve.seconds(p.bytes, p.calls) == Approx(p.seconds).epsilon(1.5e-3));
  // Midway (in log b) the bytes cost half the fourth point's seconds per byte: 1 / (0.5 / B_3 + 0.5 / B_4)
  // with B_3 all but infinite.
  const double b = std::sqrt(4e7 * 8e7);
  CHECK(curve.seconds(b, 20) - 20 * curve.latency() == Approx(0.5 * b / bandwidth).epsilon(2e-3));
}

TEST_CASE("Scaling a curve scales its bandwidth and replaces its latency", "[predict]") {
  const CostCurve curve({{1e3, 1e-6 + 1e3 / 1e10}, {1e6, 1e-6 + 1e6 / 1e10}});
  const CostCurve fast = curve.scaled(2.0, 5e-6);
  CHECK(fast.latency() == 5e-6);
  CHECK(fast.seconds(1e5) == Approx(5e-6 + 1e5 / 2e10).epsilon(1e-12));
}

TEST_CASE("A cost curve rejects unusable points", "[predict]") {
  CHECK_THROWS_AS(CostCurve({{1e3, 1e-6}}), Error);
  CHECK_THROWS_AS(CostCurve({{1e3, 1e-6}, {1e3, 2e-6}}), Error);
  CHECK_THROWS_AS(CostCurve({{1e3, 1e-6}, {1e4, 0.0}}), Error);
  CHECK_THROWS_AS(CostCurve({{-1.0, 1e-6}, {1e4, 1e-5}}), Error);
  CHECK_THROWS_AS(CostCurve({{1e3, 1e-6}, {1e4, std::numeric_limits<double>::quiet_NaN()}}), Error);
  CHECK_THROWS_AS(CostCurve({{1e3, 1e-6, 0.0}, {1e4, 1e-5}}), Error);
}

}  // namespace
}  // namespace miniapp::predict
