#include "miniapp/run/signal_period.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <numeric>
#include <vector>

namespace miniapp::run {
namespace {

constexpr int spectrum_samples = 1024, spectrum_oversampling = 8;

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
  const double df = 1 / (spectrum_oversampling * record), nyquist = 0.5 / step;
  std::vector<double> frequencies, power;
  for (int j = 2 * spectrum_oversampling; j * df <= nyquist; ++j) {
    const std::complex<double> turn = std::polar(1.0, -two_pi * j * df * step);  // the phase's advance a sample
    std::complex<double> sum = 0, phase = 1;
    for (const double xi : x) sum += xi * phase, phase *= turn;
    frequencies.push_back(j * df);
    power.push_back(std::norm(sum));
  }
  const auto peak = static_cast<std::size_t>(std::max_element(power.begin(), power.end()) - power.begin());
  if (peak == 0 || peak + 1 == power.size() || std::min(power[peak - 1], power[peak + 1]) <= 0) return frequencies[peak];
  const double a = std::log(power[peak - 1]), b = std::log(power[peak]), c = std::log(power[peak + 1]);
  const double curvature = a - 2 * b + c;
  return frequencies[peak] + (curvature != 0 ? 0.5 * (a - c) / curvature : 0.0) * df;
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
