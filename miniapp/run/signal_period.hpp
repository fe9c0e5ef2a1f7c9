#pragma once
#include <optional>
#include <span>

namespace miniapp::run {

// The periodicity of a sampled signal such as the lift coefficient: its mean, half its peak-to-peak
// range, and its frequency two ways. From the times at which it crosses its mean upwards (each
// crossing time interpolated linearly between samples): f = (crossings − 1) / (last crossing − first
// crossing), the finer for a clean periodic signal. And the largest peak of its power spectrum (the
// signal resampled evenly, its mean removed, a Hann window, the periodogram from two periods over the
// record to the Nyquist frequency on a grid eight times finer than 1 / record, the peak refined by the
// parabola through its log power and its neighbours'), for a signal whose period wanders and that
// carries ripples (a turbulent wake's lift), whose crossings count the ripples too.
struct SignalPeriod {
  double mean = 0;
  double amplitude = 0;
  double frequency = 0;      // from the crossings
  int periods = 0;           // crossings − 1
  double spectrum_peak = 0;  // the spectrum's largest peak
};

// Over the samples (t_i, v_i), t increasing; nothing with fewer than two whole periods (3 crossings).
std::optional<SignalPeriod> signal_period(std::span<const double> t, std::span<const double> v);

}  // namespace miniapp::run
