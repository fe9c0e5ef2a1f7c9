#pragma once
#include <vector>

// The cost of one call of a kernel as a function of the bytes it moves: t(b) = L + b / B(b), with a
// latency L and an effective bandwidth B(b) that depends on the size (caches, launch overhead,
// threads). Built from timed calls at several sizes; reproduces each of them exactly.
namespace miniapp::predict {

struct CostPoint {
  double bytes = 0;    // per call (the kernel counters' bytes)
  double seconds = 0;  // median time of one call
};

class CostCurve {
 public:
  CostCurve() = default;
  // `points`: at least two, with distinct positive bytes and positive seconds (any order). The
  // latency L is the intercept of the line through the two smallest calls, clamped to
  // [0, smallest call time): exact for a linear cost t = L + b / B. Throws miniapp::Error otherwise.
  explicit CostCurve(std::vector<CostPoint> points);

  double latency() const { return latency_; }
  // B(b) in bytes/s: measured B_i = b_i / (t_i − L) at the calibrated sizes, interpolated linearly in
  // log b between them and held constant beyond the smallest and largest.
  double bandwidth(double bytes) const;
  // t(b) = L + b / B(b); 0 for b ≤ 0.
  double seconds(double bytes) const;
  // The same curve on a device whose bandwidth is `factor` times this one's, with latency `latency`.
  CostCurve scaled(double factor, double latency) const;

  const std::vector<CostPoint>& points() const { return points_; }

 private:
  std::vector<CostPoint> points_;     // sorted by bytes
  std::vector<double> bandwidths_;    // B_i per point
  double latency_ = 0;
};

}  // namespace miniapp::predict
