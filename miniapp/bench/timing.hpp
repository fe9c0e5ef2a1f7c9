#pragma once
#include <algorithm>
#include <chrono>
#include <vector>

namespace miniapp::bench {

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The median wall time in seconds of `repeat` calls of `run`, after `warmup` untimed calls. `run`
// must have finished its work when it returns (asynchronous backends synchronise inside it).
template <class F>
double median_seconds(int warmup, int repeat, F&& run) {
  for (int i = 0; i < warmup; ++i) run();
  std::vector<double> seconds;
  for (int i = 0; i < repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return median(seconds);
}

}  // namespace miniapp::bench
