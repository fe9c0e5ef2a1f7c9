#include "miniapp/run/run_loop.hpp"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "miniapp/run/checkpoints.hpp"
#include "miniapp/run/forces_summary.hpp"
#include "miniapp/run/health_check.hpp"
#include "miniapp/run/observers.hpp"
#include "miniapp/run/progress.hpp"
#include "miniapp/run/rank_watchdog.hpp"
#include "miniapp/run/snapshot.hpp"
#include "miniapp/run/stop_signals.hpp"

namespace miniapp::run {
namespace {

using clock = std::chrono::steady_clock;

// A time with the digits that tell neighbouring steps apart.
std::string precise(double t) {
  std::ostringstream s;
  s << std::setprecision(12) << t;
  return s.str();
}

// Adds the wall time of `work` to `seconds`.
template <class Work>
void timed(double& seconds, const Work& work) {
  const auto start = clock::now();
  work();
  seconds += std::chrono::duration<double>(clock::now() - start).count();
}

bool finished(const time::FlowFields& f, const cases::RunConfig& run) {
  if (run.max_steps && f.step >= *run.max_steps) return true;
  return run.end_time && time::reached(f.time, *run.end_time);
}

// Before the first step: no step may pass a whole output or checkpoint interval.
void check_first_step(const time::FlowFields& f, const cases::CaseConfig& config) {
  const time::ScheduledInterval intervals[] = {{"output.interval", config.output.interval},
                                               {"output.checkpoint_interval", config.output.checkpoint_interval}};
  time::check_step_within_intervals(f.dt, config.numerics.dt ? "numerics.dt" : "the stability limit at the start",
                                    intervals);
}

// The state the step just took the run to is written: output or a checkpoint is due, or the next step
// is the first of those made equal to land on run.end_time (checkpointed before it). A stop signal's
// checkpoint apart: the ranks agree on the signal later.
bool saves_state(const time::FlowFields& f, const cases::RunConfig& run, double next_output,
                 const CheckpointRecord& checkpoints, bool landed) {
  if (time::reached(f.time, next_output)) return true;
  return !landed && (time::reached(f.time, checkpoints.next_time) || time::landing_dt(f.dt, f.time, run.end_time).has_value());
}

// The restart's message when the checkpoint is already at the end of the run ("" when it is not).
std::string already_finished(const time::FlowFields& f, const cases::RunConfig& run, const std::string& dir) {
  if (!finished(f, run)) return "";
  std::ostringstream why;
  why << "restart   nothing to do: the checkpoint in " << dir << " (step " << f.step << ", t = " << precise(f.time)
      << ") is already at the end of the run (";
  if (run.max_steps && f.step >= *run.max_steps) why << "run.max_steps = " << *run.max_steps;
  else why << "run.end_time = " << *run.end_time;
  why << "); raise it to continue\n";
  return why.str();
}

}  // namespace

RunSummary run_simulation(Simulation& sim, const RunOptions& options, std::ostream& out) {
  auto& f = *sim.fields;
  const auto& config = sim.config;
  const std::string dir = config.output.directory;
  // From here on a stop signal waits for the end of a step (the restore included).
  const StopSignals stop_signals;
  RunSummary summary;
  CheckpointRecord checkpoints{std::nullopt, dir, 0};
  std::optional<output::CheckpointData> restored;
  if (options.restart_dir) {
    double read_seconds = 0;
    timed(read_seconds, [&] { restored = restore_checkpoint(sim, *options.restart_dir, out); });
    std::ostringstream read_time;
    read_time << std::fixed << std::setprecision(2) << read_seconds;
    checkpoints.last_step = f.step;
    out << "restart   from " << *options.restart_dir << " at step " << f.step << ", t = " << precise(f.time)
        << " (read in " << read_time.str() << " s)\n";
    if (const std::string done = already_finished(f, config.run, *options.restart_dir); !done.empty()) {
      out << done;
      return summary;
    }
  }
  check_first_step(f, config);
  std::optional<RankWatchdog> watchdog;
  if (const auto* comm = sim.domain->communicator()) watchdog.emplace(*comm, config.run.watchdog_timeout);
  Observers observers(sim, restored ? &*restored : nullptr);
  HealthCheck health(sim);
  const auto write_output = [&] { timed(summary.output_seconds, [&] { observers.write_output(); }); };
  const auto checkpoint = [&] {
    timed(summary.checkpoint_seconds, [&] {
      output::CheckpointData extra;
      extra.arrays = observers.checkpoint_arrays();
      save_checkpoint(sim, dir, config.output.checkpoint_keep, extra);
    });
    checkpoints.last_step = f.step;
  };
  Progress progress(out, config.run, f, options.quiet || sim.rank() != 0);

  double next_output = time::next_multiple(f.time, config.output.interval);
  checkpoints.next_time = time::next_multiple(f.time, config.output.checkpoint_interval);
  if (!restored) write_output();
  summary.output_seconds = 0;  // the initial output is before the loop

  const auto loop_start = clock::now();
  long last_output = f.step;
  bool landed = false;  // the steps are being made equal to land on run.end_time (time_step_control.hpp)
  while (!finished(f, config.run)) {
    if (const std::optional<double> dt = time::landing_dt(f.dt, f.time, config.run.end_time)) {
      if (!landed && checkpoints.last_step != f.step) checkpoint();
      landed = true;
      f.dt = *dt;
    }
    const auto step_start = clock::now();
    const time::StepReport report = sim.scheme->advance(f);
    summary.step_seconds += std::chrono::duration<double>(clock::now() - step_start).count();
    std::istringstream chosen(take_pressure_choices(sim));  // on every rank: it updates the case's numerics
    for (std::string line; std::getline(chosen, line);)
      if (sim.rank() == 0) out << "pressure  " << line << "\n";
    summary.steps += 1;
    summary.poisson_iterations += report.poisson.iterations;
    for (int p = 0; p < time::phase_count; ++p) summary.phase_kernels[p] += report.kernels[p];

    const KernelCounters before_observers = sim.exec.counters();
    timed(summary.sample_seconds, [&] {
      if (observers.sample_statistics()) sim.exec.synchronize();  // nothing to wait for otherwise
    });
    std::optional<double> kinetic_energy;
    timed(summary.row_seconds, [&] {
      kinetic_energy = observers.record_row(report, step_start, finished(f, config.run));
      // A state the run saves is checked whole, so that no file holds a runaway one.
      if (!kinetic_energy && saves_state(f, config.run, next_output, checkpoints, landed)) kinetic_energy = observers.kinetic_energy();
      sim.exec.synchronize();
    });
    summary.monitor_kernels += sim.exec.counters().since(before_observers);
    health.check(report, kinetic_energy, checkpoints);
    if (!report.poisson.converged && sim.rank() == 0) out << "warning: step " << f.step << ": " << report.poisson.warning << "\n";
    progress.update(f, report);

    if (time::reached(f.time, next_output)) {
      write_output();
      last_output = f.step;
      next_output = time::next_multiple(f.time, config.output.interval);
    }
    if (!landed && time::reached(f.time, checkpoints.next_time)) {
      checkpoint();
      checkpoints.next_time = time::next_multiple(f.time, config.output.checkpoint_interval);
    }
    // Every rank stops at the same step when any received a stop signal.
    const int signal = watchdog ? watchdog->agree_on_stop(f.step, StopSignals::received()) : StopSignals::received();
    if (signal != 0) {
      if (checkpoints.last_step != f.step) checkpoint();
      summary.stop_signal = signal;
      out << "stopped   by " << signal_name(signal) << " at step " << f.step << ", t = " << precise(f.time)
          << ": checkpoint written to " << dir << " (continue with --restart " << dir << ")\n";
      break;
    }
  }
  if (summary.stop_signal == 0) {
    if (last_output != f.step) write_output();
    if (!landed && checkpoints.last_step != f.step) checkpoint();
    if (landed && sim.rank() == 0)
      out << "checkpoint of step " << *checkpoints.last_step << ", before the last " << f.step - *checkpoints.last_step
          << " steps, made equal to land on run.end_time: a restart continues from there\n";
  }
  summary.wall_seconds = std::chrono::duration<double>(clock::now() - loop_start).count();
  progress.finish(f);
  if (sim.rank() == 0 && summary.stop_signal == 0) print_forces_summary(config, out);
  return summary;
}

}  // namespace miniapp::run
