#include "miniapp/predict/achieved_bandwidth.hpp"

namespace miniapp::predict {

std::string_view name(BandwidthStanding s) {
  switch (s) {
    case BandwidthStanding::within: return "within the copy bandwidth";
    case BandwidthStanding::cache_resident: return "cache-resident";
    case BandwidthStanding::impossible: return "impossible: time not where the bytes are counted";
  }
  return "?";
}

std::vector<AchievedBandwidth> achieved_bandwidth(const PredictionReport& r) {
  const double iterations = r.measured ? r.measured->iterations : r.counts.iterations;
  const double copy = r.calibration.copy_gb_per_s;
  const bool fits_cache = !r.scaling.empty() && r.scaling.front().working_set_bytes <= r.calibration.retained_cache_bytes();
  std::vector<AchievedBandwidth> out;
  for (int k = 0; k < kernel_kind_count; ++k) {
    AchievedBandwidth a;
    a.kind = static_cast<KernelKind>(k);
    a.bytes = iterations * r.counts.per_iteration[k].bytes;
    a.flops = iterations * r.counts.per_iteration[k].flops;
    for (int p = 0; p < time::phase_count; ++p) {
      a.bytes += r.counts.fixed[p][k].bytes;
      a.flops += r.counts.fixed[p][k].flops;
      a.seconds += r.measured ? r.measured->kernel_seconds[p][k]
                              : (r.scaling.empty() ? 0.0 : r.scaling.front().phases[p].kinds[k].seconds);
    }
    if (!(a.bytes > 0) || !(a.seconds > 0)) continue;
    a.gb_per_s = a.bytes / a.seconds * 1e-9;
    if (a.gb_per_s > copy_bandwidth_spread * copy)
      a.standing = fits_cache ? BandwidthStanding::cache_resident : BandwidthStanding::impossible;
    out.push_back(a);
  }
  return out;
}

}  // namespace miniapp::predict
