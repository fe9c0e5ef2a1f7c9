#include "miniapp/bench/bandwidth.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <memory>

#include "miniapp/bench/timing.hpp"
#include "operators/backend/array.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::bench {

namespace {

constexpr std::size_t min_copy_length = std::size_t{1} << 25;

// Doubles per array: at least 2^25 (256 MiB) and twice the last-level cache where glibc reports it
// (some server CPUs have L3 caches of several hundred MiB).
std::size_t cpu_copy_length() {
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return std::max(min_copy_length, l3 > 0 ? 2 * static_cast<std::size_t>(l3) / sizeof(double) : 0);
}

double cpu_copy_seconds(std::size_t copy_length, int repeat) {
  // Uninitialised storage, first touched in parallel with the copy's schedule (NUMA placement).
  std::unique_ptr<double[]> x(new double[copy_length]), y(new double[copy_length]);
  const auto n = static_cast<std::ptrdiff_t>(copy_length);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) x[i] = 1.0, y[i] = 0.0;
  double* __restrict dst = y.get();
  const double* __restrict src = x.get();
  return median_seconds(1, repeat, [&] {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) dst[i] = src[i];
  });
}

double device_copy_seconds(const Executor& exec, std::size_t copy_length, int repeat) {
  const auto n = checked_index(copy_length, "copy bandwidth array");
  Vector x(exec, n), y(exec, n);
  fill(exec, 1.0, x);
  fill(exec, 0.0, y);
  return median_call_seconds(
      exec, 1, repeat, [&] { exec.copy(y.data(), x.data(), sizeof(double) * copy_length); }, bench_queued_calls);
}

}  // namespace

double copy_bandwidth(const Executor& exec, int repeat) {
  // Device caches (50 MiB L2 on an H100) are far below the minimum length.
  const std::size_t copy_length = exec.backend() == Backend::cpu ? cpu_copy_length() : min_copy_length;
  const double seconds = exec.backend() == Backend::cpu ? cpu_copy_seconds(copy_length, repeat)
                                                        : device_copy_seconds(exec, copy_length, repeat);
  return 2.0 * sizeof(double) * static_cast<double>(copy_length) / seconds / 1e9;
}

}  // namespace miniapp::bench
