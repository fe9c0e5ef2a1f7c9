#include "miniapp/predict/prediction.hpp"

#include <string>

#include "miniapp/core/error.hpp"

namespace miniapp::predict {
namespace {

constexpr int dot_kind = static_cast<int>(KernelKind::dot);

PhaseLoad per_device(PhaseLoad load, int devices) {
  for (KindLoad& k : load) k.bytes /= devices, k.flops /= devices;
  return load;
}

}  // namespace

CacheLevel cache_level(const DeviceDescription& device, double working_set_bytes) {
  if (working_set_bytes <= device.private_cache_bytes) return CacheLevel::hot;
  if (working_set_bytes <= device.cache_bytes) return CacheLevel::warm;
  return CacheLevel::streaming;
}

PhasePrediction price(const PhaseLoad& load, const Calibration& c, CacheLevel level, double host_reads) {
  PhasePrediction p;
  for (int k = 0; k < kernel_kind_count; ++k) {
    const KindLoad& l = load[k];
    if (l.calls <= 0) continue;
    const CostCurve& curve = c.curve(priced_variant(static_cast<KernelKind>(k)), level);
    p.kinds[k] = {l.calls, l.bytes, l.calls * curve.seconds(l.bytes / l.calls)};
    p.seconds += p.kinds[k].seconds;
  }
  p.host_reads = host_reads;
  p.kinds[dot_kind].seconds += host_reads * c.sync_seconds;
  p.seconds += host_reads * c.sync_seconds;
  return p;
}

StepPrediction predict_step(const StepCounts& counts, const Calibration& c, double iterations,
                            double working_set_bytes, int devices) {
  if (devices < 1 || !(iterations >= 0))
    throw Error("prediction: " + std::to_string(devices) + " devices and " + std::to_string(iterations) +
                " Poisson iterations; need at least 1 device and a non-negative iteration count");
  StepPrediction s;
  s.devices = devices;
  s.iterations = iterations;
  s.working_set_bytes = working_set_bytes / devices;
  s.cache = cache_level(c.device, s.working_set_bytes);
  // The Poisson iterations are priced apart from the solve's set-up: their calls have other sizes.
  const PhaseLoad per_iteration = per_device(counts.per_iteration, devices);
  double iteration_bytes = 0;
  for (const KindLoad& k : per_iteration) iteration_bytes += k.bytes;
  s.iteration_cache = cache_level(c.device, iteration_bytes);
  const PhasePrediction iteration = price(per_iteration, c, s.iteration_cache, counts.iteration_host_reads);
  s.iteration_seconds = iteration.seconds;
  for (int p = 0; p < time::phase_count; ++p) {
    s.phases[p] = price(per_device(counts.fixed[p], devices), c, s.cache, counts.fixed[p][dot_kind].calls);
    s.explicit_seconds += s.phases[p].seconds;
  }
  PhasePrediction& solve = s.phases[static_cast<int>(time::Phase::poisson_solve)];
  for (int k = 0; k < kernel_kind_count; ++k) {
    solve.kinds[k].calls += iterations * iteration.kinds[k].calls;
    solve.kinds[k].bytes += iterations * iteration.kinds[k].bytes;
    solve.kinds[k].seconds += iterations * iteration.kinds[k].seconds;
  }
  solve.host_reads += iterations * iteration.host_reads;
  solve.seconds += iterations * iteration.seconds;
  s.seconds = s.explicit_seconds + iterations * s.iteration_seconds + s.communication_seconds;
  return s;
}

}  // namespace miniapp::predict
