#include "miniapp/run/run_loop.hpp"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "miniapp/output/checkpoint.hpp"
#include "miniapp/output/diagnostics_writer.hpp"
#include "miniapp/output/vtk_writer.hpp"
#include "miniapp/run/progress.hpp"
#include "miniapp/run/snapshot.hpp"
#include "miniapp/time/flow_diagnostics.hpp"

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

void check_health(const time::FlowFields& f, const time::StepReport& report, const time::FlowIntegrals& integrals,
                  const std::string& checkpoint_dir) {
  std::ostringstream why;
  if (!std::isfinite(integrals.kinetic_energy) || !std::isfinite(report.poisson.relative_residual))
    why << "the solution is no longer finite (kinetic energy " << integrals.kinetic_energy << ", Poisson residual "
        << report.poisson.relative_residual << ")";
  else if (!(f.dt > 0) || report.cfl > exploding_cfl)
    why << "the CFL number exploded (" << report.cfl << " > " << exploding_cfl << ")";
  else
    return;
  throw Error("step " + std::to_string(f.step) + ", t = " + std::to_string(f.time) + ": " + why.str() +
              "; the run stops here, the last checkpoint in " + checkpoint_dir + " is left intact");
}

output::FieldSelection field_selection(const cases::OutputConfig& o) {
  using F = cases::OutputField;
  return {o.has(F::velocity), o.has(F::pressure), o.has(F::eddy_viscosity), o.has(F::vorticity),
          o.has(F::q_criterion)};
}

}  // namespace

RunSummary run_simulation(Simulation& sim, const RunOptions& options, std::ostream& out) {
  auto& f = *sim.fields;
  const auto& config = sim.config;
  const std::string dir = config.output.directory;
  std::optional<long> restart_step;
  if (options.restart_dir) {
    restore_checkpoint(sim, *options.restart_dir);
    restart_step = f.step;
    out << "restart   from " << *options.restart_dir << " at step " << f.step << ", t = " << precise(f.time) << "\n";
  }
  check_first_step(f, config);
  // Values are global reductions: rank 0 writes the file.
  std::optional<output::DiagnosticsWriter> diagnostics;
  if (sim.rank() == 0) diagnostics.emplace(dir, restart_step);
  time::FlowDiagnostics flow_diagnostics(sim.exec, *sim.operators, *sim.domain, config.physics.nu);
  // An empty field list turns VTK output off (e.g. benchmark runs, or builds without VTK).
  std::optional<output::VtkWriter> vtk;
  if (!config.output.fields.empty())
    vtk.emplace(sim.output_mesh(), output::VtkWriterOptions{dir, config.name, sim.rank(), sim.ranks(),
                                                            field_selection(config.output), restart_step});
  const auto write_output = [&] {
    if (vtk) write_vtk(sim, flow_diagnostics.gradient(), *vtk);
  };
  Progress progress(out, config.run, f, options.quiet || sim.rank() != 0);

  double next_output = time::next_multiple(f.time, config.output.interval);
  double next_checkpoint = time::next_multiple(f.time, config.output.checkpoint_interval);
  if (!restart_step) {
    flow_diagnostics.evaluate(f);
    write_output();
  }

  RunSummary summary;
  const auto loop_start = clock::now();
  long last_output = f.step;
  std::optional<long> last_checkpoint = restart_step;  // the step of the newest checkpoint on disk
  bool landed = false;  // the last step was shortened to land on run.end_time (time_step_control.hpp)
  while (!finished(f, config.run)) {
    if (const double dt = time::landing_dt(f.dt, f.time, config.run.end_time); dt < f.dt) {
      if (last_checkpoint != f.step) save_checkpoint(sim, dir);
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

    const time::FlowIntegrals integrals = flow_diagnostics.evaluate(f);
    check_health(f, report, integrals, dir);
    if (diagnostics) diagnostics->write({f.step, f.time, report.dt, report.cfl, integrals.kinetic_energy, integrals.enstrophy,
                       integrals.dissipation, integrals.max_divergence, report.poisson.iterations,
                       report.poisson.relative_residual,
                       std::chrono::duration<double>(clock::now() - step_start).count()});
    if (!report.poisson.converged && sim.rank() == 0) out << "warning: step " << f.step << ": " << report.poisson.warning << "\n";
    progress.update(f, report);

    if (time::reached(f.time, next_output)) {
      write_output();
      last_output = f.step;
      next_output = time::next_multiple(f.time, config.output.interval);
    }
    if (!landed && time::reached(f.time, next_checkpoint)) {
      save_checkpoint(sim, dir);
      last_checkpoint = f.step;
      next_checkpoint = time::next_multiple(f.time, config.output.checkpoint_interval);
    }
  }
  if (last_output != f.step) write_output();
  if (!landed && (last_checkpoint != f.step || summary.steps == 0)) save_checkpoint(sim, dir);
  if (landed && sim.rank() == 0)
    out << "checkpoint of step " << *last_checkpoint << ", before the last step, which was shortened to land on "
        << "run.end_time: a restart continues from there\n";
  summary.wall_seconds = std::chrono::duration<double>(clock::now() - loop_start).count();
  progress.finish(f);
  return summary;
}

}  // namespace miniapp::run
