#pragma once
#include <chrono>
#include <iosfwd>

#include "miniapp/case/case_config.hpp"
#include "miniapp/time/fractional_step.hpp"

namespace miniapp::run {

// Progress lines on the terminal, at most one per progress_interval of wall time:
// step, t, Δt, CFL, Poisson iterations, ms/step, ETA.
class Progress {
 public:
  Progress(std::ostream& out, const cases::RunConfig& run, const time::FlowFields& start, bool quiet);
  void update(const time::FlowFields& f, const time::StepReport& report);
  // The last line, whatever the interval.
  void finish(const time::FlowFields& f);

 private:
  using clock = std::chrono::steady_clock;
  void print(const time::FlowFields& f);
  double eta_seconds(const time::FlowFields& f, double seconds_per_step) const;

  std::ostream& out_;
  const cases::RunConfig& run_;
  bool quiet_;
  clock::time_point start_, last_print_;
  long start_step_;
  double start_time_;
  time::StepReport last_;
};

}  // namespace miniapp::run
