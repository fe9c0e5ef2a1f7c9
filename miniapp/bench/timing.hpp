#pragma once
#include <algorithm>
#include <chrono>
#include <vector>

#include "operators/backend/cuda/device.hpp"
#include "operators/backend/executor.hpp"

namespace miniapp::bench {

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The median of `repeat` values of `sample()` (seconds), after `warmup` calls whose values are dropped.
template <class F>
double median_of(int warmup, int repeat, F&& sample) {
  for (int i = 0; i < warmup; ++i) sample();
  std::vector<double> seconds;
  for (int i = 0; i < repeat; ++i) seconds.push_back(sample());
  return median(seconds);
}

// The median wall time in seconds of `repeat` calls of `run`, after `warmup` untimed calls. `run`
// must have finished its work when it returns (asynchronous backends synchronise inside it).
template <class F>
double median_seconds(int warmup, int repeat, F&& run) {
  return median_of(warmup, repeat, [&] {
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
}

// The median time of `repeat` calls of `call` on `exec`, after `warmup` untimed ones. CUDA: device
// time between events recorded on the executor's stream just before and after the call (what the
// GPU spent, launch gaps included; no host-side synchronisation overhead); CPU: wall time (the
// kernels are synchronous).
template <class F>
double median_call_seconds(const Executor& exec, int warmup, int repeat, F&& call) {
  if (exec.backend() == Backend::cpu) return median_seconds(warmup, repeat, call);
  cuda::StreamTimer timer(exec.stream());
  return median_of(warmup, repeat, [&] {
    timer.start();
    call();
    return timer.stop();
  });
}

}  // namespace miniapp::bench
