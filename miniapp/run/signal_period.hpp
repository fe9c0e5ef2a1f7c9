#pragma once
#include <optional>
#include <span>

namespace miniapp::run {

// The periodicity of a sampled signal such as the lift coefficient: its mean, half its peak-to-peak
// range, and its frequency from the times at which it crosses its mean upwards (each crossing time
// interpolated linearly between samples): f = (crossings − 1) / (last crossing − first crossing).
struct SignalPeriod {
  double mean = 0;
  double amplitude = 0;
  double frequency = 0;
  int periods = 0;  // crossings − 1
};

// Over the samples (t_i, v_i), t increasing; nothing with fewer than two whole periods (3 crossings).
std::optional<SignalPeriod> signal_period(std::span<const double> t, std::span<const double> v);

}  // namespace miniapp::run
