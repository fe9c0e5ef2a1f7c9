#pragma once
#include <string_view>
#include <vector>

#include "miniapp/predict/report.hpp"

namespace miniapp::predict {

// Where a kernel kind's achieved bandwidth stands against the copy bandwidth measured on the device.
enum class BandwidthStanding {
  within,          // at most the copy bandwidth (or above it by less than the timings' spread)
  cache_resident,  // above it, with the step's working set inside the cache the run keeps: possible
  impossible,      // above it out of cache: the kind's time is not where its bytes are counted
};

std::string_view name(BandwidthStanding s);

// The bandwidth one kernel kind achieved over a step: its counted bytes over its time (measured
// when the report has a measurement, else predicted), and how that stands.
struct AchievedBandwidth {
  KernelKind kind = KernelKind::spmv;
  double bytes = 0, flops = 0, seconds = 0;
  double gb_per_s = 0;
  BandwidthStanding standing = BandwidthStanding::within;
};

// A kind up to this factor above the copy bandwidth is taken as within it: the two are timed
// separately, each with its own spread of a few percent.
inline constexpr double copy_bandwidth_spread = 1.10;

// The kinds with bytes and time in the step, in KernelKind order. Every figure a report draws or
// prints of achieved bandwidth comes from here, so that none above the copy bandwidth is shown as
// a plain figure.
std::vector<AchievedBandwidth> achieved_bandwidth(const PredictionReport& r);

}  // namespace miniapp::predict
