#include "miniapp/predict/cost_curve.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace miniapp::predict {

CostCurve::CostCurve(std::vector<CostPoint> points) : points_(std::move(points)) {
  if (points_.size() < 2)
    throw Error("cost curve: " + std::to_string(points_.size()) + " calibration points, need at least 2 sizes");
  std::sort(points_.begin(), points_.end(), [](const CostPoint& a, const CostPoint& b) { return a.bytes < b.bytes; });
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const CostPoint& p = points_[i];
    if (!(p.bytes > 0) || !(p.seconds > 0) || !(p.calls > 0) || !std::isfinite(p.bytes) ||
        !std::isfinite(p.seconds) || !std::isfinite(p.calls))
      throw Error("cost curve: point " + std::to_string(i) + " has bytes " + std::to_string(p.bytes) + ", seconds " +
                  std::to_string(p.seconds) + " and calls " + std::to_string(p.calls) +
                  "; all must be positive and finite");
    if (i > 0 && p.bytes == points_[i - 1].bytes)
      throw Error("cost curve: two points at " + std::to_string(p.bytes) + " bytes");
  }
  // The line y = L + x / B through (x, y) = (bytes, seconds) / calls of the two smallest points; equal
  // bytes per call leave it undetermined: L = 0.
  const CostPoint &a = points_[0], &b = points_[1];
  const double xa = a.bytes / a.calls, ya = a.seconds / a.calls, xb = b.bytes / b.calls, yb = b.seconds / b.calls;
  const double intercept = xb != xa ? ya - (yb - ya) / (xb - xa) * xa : 0.0;
  // A cache step can make the second call cheaper per byte than the first: the intercept is then
  // only bounded by the smallest time per call, kept strictly below it so B_0 stays finite.
  latency_ = std::clamp(intercept, 0.0, 0.999 * ya);
  for (const CostPoint& p : points_)
    bandwidths_.push_back(p.bytes / std::max(p.seconds - latency_ * p.calls, 1e-3 * p.seconds));
}

double CostCurve::bandwidth(double bytes) const {
  if (bytes <= points_.front().bytes) return bandwidths_.front();
  if (bytes >= points_.back().bytes) return bandwidths_.back();
  const auto upper = std::upper_bound(points_.begin(), points_.end(), bytes,
                                      [](double b, const CostPoint& p) { return b < p.bytes; });
  const std::size_t i = static_cast<std::size_t>(upper - points_.begin());
  // Seconds per byte, not bytes per second, interpolated: a point whose calls' latency alone covers
  // its time (its B_i clamped very large) then prices the interval's bytes at the other point's rate
  // scaled down, instead of making them all but free.
  const double w = std::log(bytes / points_[i - 1].bytes) / std::log(points_[i].bytes / points_[i - 1].bytes);
  return 1 / ((1 - w) / bandwidths_[i - 1] + w / bandwidths_[i]);
}

double CostCurve::seconds(double bytes, double calls) const {
  return bytes > 0 ? latency_ * calls + bytes / bandwidth(bytes) : 0.0;
}

CostCurve CostCurve::scaled(double factor, double latency) const {
  std::vector<CostPoint> points;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const CostPoint& p = points_[i];
    points.push_back({p.bytes, latency * p.calls + p.bytes / (factor * bandwidths_[i]), p.calls});
  }
  CostCurve c;
  c.points_ = std::move(points);
  c.latency_ = latency;
  for (double b : bandwidths_) c.bandwidths_.push_back(factor * b);
  return c;
}

}  // namespace miniapp::predict
