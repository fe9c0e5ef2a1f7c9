#pragma once
#include <chrono>

#include "operators/backend/executor.hpp"

namespace miniapp {

// The wall seconds f() takes on `exec`, its queued work finished before and after: on an asynchronous
// backend the time of what f ran, not of its launches.
template <class F>
double synchronized_seconds(const Executor& exec, F&& f) {
  exec.synchronize();
  const auto start = std::chrono::steady_clock::now();
  f();
  exec.synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace miniapp
