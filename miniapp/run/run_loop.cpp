#include "miniapp/run/run_loop.hpp"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "miniapp/run/forces_summary.hpp"
#include "miniapp/run/observers.hpp"
#include "miniapp/run/progress.hpp"
#include "miniapp/run/snapshot.hpp"

namespace miniapp::run {
namespace {

using clock = std::chrono::steady_clock;

// An explicit scheme is far past its stability limit at this CFL number: the run is diverging.
constexpr double exploding_cfl = 10.0;

// A time with the digits that tell neighbouring steps apart.
std::string precise(double t) {
  std::ostringstream s;
  s << std::setprecision(12) << t;
  return s.str();
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

// `kinetic_energy`: of the step's diagnostics row, 0 on steps without one (the CFL number, computed
// every step, turns NaN or huge once the velocity does).
void check_health(const time::FlowFields& f, const time::StepReport& report, double kinetic_energy,
                  const std::string& checkpoint_dir) {
  std::ostringstream why;
  if (!std::isfinite(kinetic_energy) || !std::isfinite(report.poisson.relative_residual) || std::isnan(report.cfl))
    why << "the solution is no longer finite (kinetic energy " << kinetic_energy << ", CFL " << report.cfl
        << ", Poisson residual " << report.poisson.relative_residual << ")";
  else if (!(f.dt > 0) || report.cfl > exploding_cfl)
    why << "the CFL number exploded (" << report.cfl << " > " << exploding_cfl << ")";
  else
    return;
  throw Error("step " + std::to_string(f.step) + ", t = " + std::to_string(f.time) + ": " + why.str() +
              "; the run stops here, the last checkpoint in " + checkpoint_dir + " is left intact");
}


}  // namespace

RunSummary run_simulation(Simulation& sim, const RunOptions& options, std::ostream& out) {
  auto& f = *sim.fields;
  const auto& config = sim.config;
  const std::string dir = config.output.directory;
  std::optional<output::CheckpointData> restored;
  if (options.restart_dir) {
    restored = restore_checkpoint(sim, *options.restart_dir);
    out << "restart   from " << *options.restart_dir << " at step " << f.step << ", t = " << precise(f.time) << "\n";
  }
  check_first_step(f, config);
  Observers observers(sim, restored ? &*restored : nullptr);
  RunSummary summary;
  const auto timed = [](double& seconds, const auto& work) {
    const auto start = clock::now();
    work();
    seconds += std::chrono::duration<double>(clock::now() - start).count();
  };
  const auto write_output = [&] { timed(summary.output_seconds, [&] { observers.write_output(); }); };
  const auto checkpoint = [&] {
    timed(summary.checkpoint_seconds, [&] { save_checkpoint(sim, dir, observers.checkpoint_arrays()); });
  };
  Progress progress(out, config.run, f, options.quiet || sim.rank() != 0);

  double next_output = time::next_multiple(f.time, config.output.interval);
  double next_checkpoint = time::next_multiple(f.time, config.output.checkpoint_interval);
  if (!restored) write_output();
  summary.output_seconds = 0;  // the initial output is before the loop

  const auto loop_start = clock::now();
  long last_output = f.step;
  std::optional<long> last_checkpoint;  // the step of the newest checkpoint on disk
  if (restored) last_checkpoint = f.step;  // the step of the newest checkpoint on disk
  bool landed = false;  // the last step was shortened to land on run.end_time (time_step_control.hpp)
  while (!finished(f, config.run)) {
    if (const double dt = time::landing_dt(f.dt, f.time, config.run.end_time); dt < f.dt) {
      if (last_checkpoint != f.step) checkpoint();
      last_checkpoint = f.step;
      landed = true;
      f.dt = dt;
    }
    const auto step_start = clock::now();
    const time::StepReport report = sim.scheme->advance(f);
    summary.step_seconds += std::chrono::duration<double>(clock::now() - step_start).count();
    summary.steps += 1;
    summary.poisson_iterations += report.poisson.iterations;
    for (int p = 0; p < time::phase_count; ++p) summary.phase_kernels[p] += report.kernels[p];

    double kinetic_energy = 0;
    timed(summary.monitor_seconds, [&] {
      const KernelCounters before = sim.exec.counters();
      kinetic_energy = observers.after_step(report, step_start);
      summary.monitor_kernels += sim.exec.counters().since(before);
    });
    check_health(f, report, kinetic_energy, dir);
    if (!report.poisson.converged && sim.rank() == 0) out << "warning: step " << f.step << ": " << report.poisson.warning << "\n";
    progress.update(f, report);

    if (time::reached(f.time, next_output)) {
      write_output();
      last_output = f.step;
      next_output = time::next_multiple(f.time, config.output.interval);
    }
    if (!landed && time::reached(f.time, next_checkpoint)) {
      checkpoint();
      last_checkpoint = f.step;
      next_checkpoint = time::next_multiple(f.time, config.output.checkpoint_interval);
    }
  }
  if (last_output != f.step) write_output();
  if (!landed && (last_checkpoint != f.step || summary.steps == 0)) checkpoint();
  if (landed && sim.rank() == 0)
    out << "checkpoint of step " << *last_checkpoint << ", before the last step, which was shortened to land on "
        << "run.end_time: a restart continues from there\n";
  summary.wall_seconds = std::chrono::duration<double>(clock::now() - loop_start).count();
  progress.finish(f);
  if (sim.rank() == 0) print_forces_summary(config, out);
  return summary;
}

}  // namespace miniapp::run
