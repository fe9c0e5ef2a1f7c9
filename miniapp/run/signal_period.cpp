#include "miniapp/run/signal_period.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace miniapp::run {

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
  return out;
}

}  // namespace miniapp::run
