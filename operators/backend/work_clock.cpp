#include "operators/backend/work_clock.hpp"

#include "operators/backend/cuda/device.hpp"

namespace miniapp {

WorkClock::WorkClock(const Executor& exec, int marks) {
  if (exec.backend() == Backend::cuda) device_ = std::make_unique<cuda::StreamMarks>(exec.stream(), marks);
  else wall_.resize(static_cast<std::size_t>(marks));
}

WorkClock::~WorkClock() = default;

void WorkClock::mark(int i) {
  if (device_) device_->record(i);
  else wall_.at(static_cast<std::size_t>(i)) = std::chrono::steady_clock::now();
}

double WorkClock::seconds(int from, int to) const {
  if (device_) return device_->seconds(from, to);
  return std::chrono::duration<double>(wall_.at(static_cast<std::size_t>(to)) - wall_.at(static_cast<std::size_t>(from)))
      .count();
}

}  // namespace miniapp
