#pragma once
#include <vector>

// The cost of `calls` kernel calls that move `bytes` in all, as a function of the bytes: t = L · calls
// + b / B(b), with a latency L per call and an effective bandwidth B(b) that depends on the size
// (caches, launch overhead, threads). A kernel's curve prices one call (calls = 1); an iteration unit's
// prices one iteration, which launches a number of calls that depends on the system (an AMG
// hierarchy's levels). Built from timed points at several sizes; reproduces each of them exactly.
namespace miniapp::predict {

struct CostPoint {
  double bytes = 0;    // per call or iteration (the kernel counters' bytes)
  double seconds = 0;  // median time of one call or iteration
  double calls = 1;    // kernel calls it launched (the counters' calls)
};

class CostCurve {
 public:
  CostCurve() = default;
  // `points`: at least two, with distinct positive bytes and positive seconds and calls (any order).
  // The latency L is the intercept of the line through the two smallest points in time per call
  // against bytes per call (t = L · calls + b / B  ⇔  t / calls = L + (b / calls) / B), clamped to
  // [0, the smallest point's time per call): exact for a linear cost. Throws miniapp::Error otherwise.
  explicit CostCurve(std::vector<CostPoint> points);

  double latency() const { return latency_; }  // per call
  // B(b) in bytes/s: measured B_i = b_i / (t_i − L · calls_i) at the calibrated sizes, its inverse
  // (seconds per byte) interpolated linearly in log b between them, held constant beyond the smallest
  // and largest.
  double bandwidth(double bytes) const;
  // t = L · calls + b / B(b); 0 for b ≤ 0.
  double seconds(double bytes, double calls = 1) const;
  // The same curve on a device whose bandwidth is `factor` times this one's, with latency `latency`.
  CostCurve scaled(double factor, double latency) const;

  const std::vector<CostPoint>& points() const { return points_; }

 private:
  std::vector<CostPoint> points_;     // sorted by bytes
  std::vector<double> bandwidths_;    // B_i per point
  double latency_ = 0;
};

}  // namespace miniapp::predict
