#include "miniapp/time/step_meter.hpp"

namespace miniapp::time {

StepMeter::StepMeter(const Executor& exec, bool timed)
    : exec_(exec), clock_(timed ? std::make_unique<WorkClock>(exec, 2 * phase_count) : nullptr) {}

void StepMeter::measure(Phase phase, StepReport& report, const std::function<void()>& sub_step) {
  const int p = static_cast<int>(phase);
  const KernelCounters before = exec_.counters();
  if (clock_) clock_->mark(2 * p);
  sub_step();
  if (clock_) clock_->mark(2 * p + 1);
  report.kernels[p] = exec_.counters().since(before);
  measured_[p] = true;
}

void StepMeter::finish(StepReport& report) {
  for (int p = 0; p < phase_count; ++p)
    if (clock_ && measured_[p]) report.phase_seconds[p] = clock_->seconds(2 * p, 2 * p + 1);
  measured_.fill(false);
}

}  // namespace miniapp::time
