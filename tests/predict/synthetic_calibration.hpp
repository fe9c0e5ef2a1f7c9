#pragma once
// Synthetic calibrations with a known linear cost t = L · calls + b / B per kernel variant and cache
// level, and per iteration unit.
#include <utility>

#include "miniapp/predict/calibration.hpp"

namespace miniapp::predict::test {

struct LinearCost {
  double latency, bandwidth;  // seconds per call, bytes/s
  double seconds(double bytes, double calls = 1) const { return latency * calls + bytes / bandwidth; }
};

// Variant v, level l: latency (1 + v) µs, bandwidth (10 + 3 v) GB/s hot, half of it warm, a third
// streaming.
inline LinearCost linear_cost(KernelVariant v, CacheLevel l) {
  const double hot = (10.0 + 3.0 * static_cast<int>(v)) * 1e9;
  return {(1.0 + static_cast<int>(v)) * 1e-6, hot / (1.0 + static_cast<int>(l))};
}

// A curve table sampled from `cost(v, l)` (a LinearCost) at a few sizes (not the sizes the tests price).
template <class Cost>
CurveTable sampled_curves(Cost cost) {
  CurveTable table;
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l) {
      const LinearCost c = cost(static_cast<KernelVariant>(v), static_cast<CacheLevel>(l));
      std::vector<CostPoint> points;
      for (const double b : {1e3, 1e4, 1e5, 1e7}) points.push_back({b, c.seconds(b)});
      table[v][l] = CostCurve(points);
    }
  return table;
}

// Every curve sampled from linear_cost at a few sizes (not the sizes the tests price). Private cache
// `cache_bytes`, last-level cache 4 × that; host round trip `sync_seconds`.
inline Calibration synthetic_calibration(double cache_bytes = 1e6, double sync_seconds = 0) {
  Calibration c;
  c.device = {"cpu", "synthetic device", 4 * cache_bytes, cache_bytes};
  c.build = {"abc123", "GNU 12", "Release", false};
  c.date = "2024-01-01T00:00:00Z";
  c.copy_gb_per_s = 20;
  c.streaming_footprint = 2e6;
  c.warm_footprint = 4e5;
  if (cache_bytes > 0) c.cache_retention = {{4 * cache_bytes, 1.0}};  // all of the last-level cache, none beyond
  c.pointwise_flops_per_second = 0;  // no compute ceiling: the linear memory costs alone
  c.sync_seconds = sync_seconds;
  c.curves = sampled_curves(linear_cost);
  return c;
}

// Calls replayed from a graph: linear_cost with a quarter of its latency (a graph node has no launch).
inline LinearCost graph_cost(KernelVariant v, CacheLevel l) {
  const LinearCost launched = linear_cost(v, l);
  return {launched.latency / 4, launched.bandwidth};
}

// `c` with graph curves sampled from graph_cost like its curves.
inline Calibration with_graph_curves(Calibration c) {
  c.graph_curves = sampled_curves(graph_cost);
  return c;
}

// A Poisson iteration timed whole: 2 µs per call + bytes / (1 GB/s), the unit's index added to the
// latency.
inline LinearCost iteration_cost(IterationUnit unit) { return {(2.0 + static_cast<int>(unit)) * 1e-6, 1e9}; }

// `c` with an iteration curve per unit sampled from iteration_cost, at calls per iteration that grow
// with the size (as an AMG hierarchy's levels).
inline Calibration with_iteration_curves(Calibration c) {
  for (int u = 0; u < iteration_unit_count; ++u) {
    const LinearCost cost = iteration_cost(static_cast<IterationUnit>(u));
    std::vector<CostPoint> points;
    for (const auto& [b, calls] : {std::pair{1e4, 10.0}, {1e5, 12.0}, {1e6, 14.0}, {1e8, 18.0}})
      points.push_back({b, cost.seconds(b, calls), calls});
    c.iteration_curves[u] = CostCurve(points);
  }
  return c;
}

// A halo update of latency `latency` whose rank moves `bandwidth` bytes/s in all over `neighbours`
// neighbours: t = latency + (neighbours × bytes per neighbour) / bandwidth.
struct LinearHalo {
  double latency, bandwidth;
  int neighbours;
};

// Transport "mpi", one halo curve on 2 ranks sampled from `halo`, allreduce 2 µs on 2 ranks.
inline CommCalibration synthetic_communication(const LinearHalo& halo) {
  std::vector<CostPoint> points;
  for (const double b : {8.0, 800.0, 8e4, 8e6}) points.push_back({b, halo.latency + halo.neighbours * b / halo.bandwidth});
  CommCalibration c;
  c.transport = "mpi";
  c.halo.push_back({2, halo.neighbours, CostCurve(points)});
  c.allreduce.push_back({2, 2e-6});
  return c;
}

}  // namespace miniapp::predict::test
