#include "miniapp/run/progress.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

namespace miniapp::run {
namespace {

// "m:ss", or "-" when unknown.
std::string minutes_seconds(double seconds) {
  if (!std::isfinite(seconds)) return "-";
  const long s = std::lround(seconds);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

}  // namespace

Progress::Progress(std::ostream& out, const cases::RunConfig& run, const time::FlowFields& start, bool quiet)
    : out_(out), run_(run), quiet_(quiet), start_(clock::now()), last_print_(start_), start_step_(start.step),
      start_time_(start.time) {}

void Progress::update(const time::FlowFields& f, const time::StepReport& report) {
  last_ = report;
  if (quiet_) return;
  if (std::chrono::duration<double>(clock::now() - last_print_).count() >= run_.progress_interval) print(f);
}

void Progress::finish(const time::FlowFields& f) {
  if (!quiet_ && f.step > start_step_) print(f);
}

// Remaining work from whichever limit ends the run first, at the average rate so far.
double Progress::eta_seconds(const time::FlowFields& f, double seconds_per_step) const {
  double eta = INFINITY;
  if (run_.max_steps) eta = static_cast<double>(*run_.max_steps - f.step) * seconds_per_step;
  if (run_.end_time && f.time > start_time_) {
    const double elapsed = std::chrono::duration<double>(clock::now() - start_).count();
    eta = std::min(eta, (*run_.end_time - f.time) / (f.time - start_time_) * elapsed);
  }
  return std::max(eta, 0.0);
}

void Progress::print(const time::FlowFields& f) {
  last_print_ = clock::now();
  const long steps = f.step - start_step_;
  const double elapsed = std::chrono::duration<double>(last_print_ - start_).count();
  const double per_step = steps > 0 ? elapsed / static_cast<double>(steps) : 0.0;
  char line[200];
  std::snprintf(line, sizeof line, "step %7ld  t %-11.5g dt %-10.3g CFL %-6.3f Poisson %4d it  %8.2f ms/step  ETA %s",
                f.step, f.time, last_.dt, last_.cfl, last_.poisson.iterations, 1e3 * per_step,
                minutes_seconds(eta_seconds(f, per_step)).c_str());
  out_ << line << "\n" << std::flush;
}

}  // namespace miniapp::run
