#include "miniapp/run/signal_period.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <numeric>
#include <vector>

#include <fftw3.h>

namespace miniapp::run {
namespace {

constexpr int spectrum_samples = 1024, spectrum_oversampling = 8;

// The power |X(f)|² of the evenly spaced samples x at f = j / (oversampling · record), j = 0 to the
// Nyquist frequency: x zero-padded to oversampling · (samples − 1) points, one real-to-complex FFT.
std::vector<double> padded_power(std::vector<double> x) {
  const int n = spectrum_oversampling * (spectrum_samples - 1);
  x.resize(static_cast<std::size_t>(n), 0.0);
  std::vector<std::complex<double>> spectrum(static_cast<std::size_t>(n / 2 + 1));
  fftw_plan plan = fftw_plan_dft_r2c_1d(n, x.data(), reinterpret_cast<fftw_complex*>(spectrum.data()), FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  std::vector<double> power(spectrum.size());
  for (std::size_t j = 0; j < spectrum.size(); ++j) power[j] = std::norm(spectrum[j]);
  return power;
}

double spectrum_peak(std::span<const double> t, std::span<const double> v, double mean) {
  constexpr double two_pi = 2 * std::numbers::pi;
  const double record = t.back() - t.front(), step = record / (spectrum_samples - 1);
  std::vector<double> x(spectrum_samples);
  std::size_t k = 0;
  for (int i = 0; i < spectrum_samples; ++i) {
    const double at = std::min(t.front() + i * step, t.back());
    while (k + 2 < t.size() && t[k + 1] < at) ++k;
    const double w = t[k + 1] > t[k] ? (at - t[k]) / (t[k + 1] - t[k]) : 0.0;
    const double hann = 0.5 - 0.5 * std::cos(two_pi * i / (spectrum_samples - 1));
    x[static_cast<std::size_t>(i)] = (v[k] + w * (v[k + 1] - v[k]) - mean) * hann;
  }
  const std::vector<double> all = padded_power(std::move(x));
  // From two periods over the record: below that a drift of the mean would pass for the peak.
  const std::span<const double> power = std::span(all).subspan(2 * spectrum_oversampling);
  const double df = 1 / (spectrum_oversampling * record);
  const auto frequency = [&](std::size_t j) { return static_cast<double>(j + 2 * spectrum_oversampling) * df; };
  const auto peak = static_cast<std::size_t>(std::max_element(power.begin(), power.end()) - power.begin());
  if (peak == 0 || peak + 1 == power.size() || std::min(power[peak - 1], power[peak + 1]) <= 0) return frequency(peak);
  const double a = std::log(power[peak - 1]), b = std::log(power[peak]), c = std::log(power[peak + 1]);
  const double curvature = a - 2 * b + c;
  return frequency(peak) + (curvature != 0 ? 0.5 * (a - c) / curvature : 0.0) * df;
}

}  // namespace

std::optional<SignalPeriod> signal_period(std::span<const double> t, std::span<const double> v) {
  if (v.size() < 3 || t.size() != v.size()) return std::nullopt;
  SignalPeriod out;
  out.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  const auto [low, high] = std::minmax_element(v.begin(), v.end());
  out.amplitude = 0.5 * (*high - *low);
  std::vector<double> crossings;
  for (std::size_t i = 1; i < v.size(); ++i) {
    const double a = v[i - 1] - out.mean, b = v[i] - out.mean;
    if (a < 0 && b >= 0) crossings.push_back(t[i - 1] + (t[i] - t[i - 1]) * (-a) / (b - a));
  }
  if (crossings.size() < 3) return std::nullopt;
  out.periods = static_cast<int>(crossings.size()) - 1;
  out.frequency = out.periods / (crossings.back() - crossings.front());
  out.spectrum_peak = spectrum_peak(t, v, out.mean);
  return out;
}

}  // namespace miniapp::run
