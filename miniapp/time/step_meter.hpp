#pragma once
#include <array>
#include <functional>
#include <memory>

#include "miniapp/time/step_report.hpp"
#include "operators/backend/work_clock.hpp"

namespace miniapp::time {

// The instrumentation wrapped around each sub-step of a time step, kept out of the scheme: the kernel
// counters a sub-step adds (StepReport::kernels) and, when timed, its time on the executor
// (StepReport::phase_seconds): a mark on the executor's work at each phase's start and end, no wait
// between them, so the step runs as it would untimed.
class StepMeter {
 public:
  StepMeter(const Executor& exec, bool timed);

  // Runs `sub_step` as `phase` of the step that `report` describes.
  void measure(Phase phase, StepReport& report, const std::function<void()>& sub_step);
  // After the step's last sub-step: the measured phases' times into `report` (waits for the executor
  // when timed), and the meter ready for the next step.
  void finish(StepReport& report);

 private:
  Executor exec_;
  std::unique_ptr<WorkClock> clock_;  // marks 2p and 2p + 1: start and end of phase p; null when untimed
  std::array<bool, phase_count> measured_{};  // phases of the current step
};

}  // namespace miniapp::time
