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

// Calls queued back to back per timed sample in the kernel benchmarks: the time loop and PCG queue
// their kernels the same way, so each launch overlaps the previous kernel and only the first one of a
// sample is exposed (a single timed call would add a launch to a kernel not much longer than one).
inline constexpr int bench_queued_calls = 10;

// The median time per call of `repeat` samples of `calls` calls of `call` on `exec`, after `warmup`
// untimed calls. CUDA: device time between events recorded on the executor's stream before and after
// the sample's calls, queued back to back, divided by `calls` (launch gaps between them included, no
// host-side synchronisation overhead); CPU: wall time (the kernels are synchronous).
template <class F>
double median_call_seconds(const Executor& exec, int warmup, int repeat, F&& call, int calls = 1) {
  if (exec.backend() == Backend::cpu)
    return median_seconds(warmup, repeat, [&] {
             for (int i = 0; i < calls; ++i) call();
           }) / calls;
  cuda::StreamTimer timer(exec.stream());
  return median_of(warmup, repeat, [&] {
    timer.start();
    for (int i = 0; i < calls; ++i) call();
    return timer.stop() / calls;
  });
}

}  // namespace miniapp::bench
