#pragma once
#include <chrono>
#include <memory>
#include <vector>

#include "operators/backend/executor.hpp"

namespace miniapp {

namespace cuda {
class StreamMarks;
}

// Marks on the executor's work, to time consecutive stretches of it without waiting at each mark: CUDA
// events on the stream (device time; launch gaps included, the host's lead excluded), the wall clock
// on the CPU (its kernels are synchronous).
class WorkClock {
 public:
  WorkClock(const Executor& exec, int marks);
  ~WorkClock();
  WorkClock(const WorkClock&) = delete;
  WorkClock& operator=(const WorkClock&) = delete;
  void mark(int i);                        // mark i, at this point of the work queued so far
  double seconds(int from, int to) const;  // waits for mark `to`; seconds from mark `from` to it

 private:
  std::vector<std::chrono::steady_clock::time_point> wall_;  // CPU
  std::unique_ptr<cuda::StreamMarks> device_;                  // CUDA
};

}  // namespace miniapp
