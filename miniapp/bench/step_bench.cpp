#include "miniapp/bench/step_bench.hpp"

#include <chrono>

#include "miniapp/run/memory_estimate.hpp"

namespace miniapp::bench {

namespace {

constexpr int solve_phase = static_cast<int>(time::Phase::poisson_solve);

KernelCounters step_total(const std::array<KernelCounters, time::phase_count>& phases) {
  KernelCounters total;
  for (const KernelCounters& phase : phases) total += phase;
  return total;
}

// The slice height set_up_simulation uploads with: the case's, else one warp on CUDA and one cache
// line of doubles on CPU (the memory estimate depends on it through the sELL padding).
index_t uploaded_slice_height(const run::Simulation& sim) {
  return sim.config.numerics.slice_height > 0 ? sim.config.numerics.slice_height : sim.exec.default_slice_height();
}

struct TimedSteps {
  double wall_seconds = 0;
  long long iterations = 0, queued_iterations = 0;
  std::array<KernelCounters, time::phase_count> phases;
};

// `steps` steps of the scheme between two synchronisations of the executor.
TimedSteps time_steps(run::Simulation& sim, int steps) {
  TimedSteps timed;
  sim.exec.synchronize();
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    const time::StepReport report = sim.scheme->advance(*sim.fields);
    timed.iterations += report.poisson.iterations;
    timed.queued_iterations += report.poisson.queued_iterations;
    for (int p = 0; p < time::phase_count; ++p) timed.phases[p] += report.kernels[p];
  }
  sim.exec.synchronize();
  timed.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return timed;
}

}  // namespace

double StepBenchReport::bytes_per_step() const { return step_total(phases).total().bytes / steps; }

double StepBenchReport::no_op_bytes_per_step() const {
  if (queued_iterations == 0) return 0;
  const double solve_bytes = phases[solve_phase].total().bytes / steps;
  return solve_bytes * static_cast<double>(queued_iterations - poisson_iterations) / static_cast<double>(queued_iterations);
}

double StepBenchReport::core_kernel_share() const {
  const KernelCounters total = step_total(profiled_phases);
  const double core = total.tally(KernelKind::spmv).seconds + total.tally(KernelKind::axpy).seconds +
                      total.tally(KernelKind::dot).seconds;
  return core / profiled_wall_seconds;
}

namespace {

double core_seconds(const KernelTimeline& t) {
  return t.seconds[static_cast<int>(KernelKind::spmv)] + t.seconds[static_cast<int>(KernelKind::axpy)] +
         t.seconds[static_cast<int>(KernelKind::dot)];
}

}  // namespace

double StepBenchReport::traced_core_share() const { return core_seconds(*timeline) / traced_wall_seconds; }

double StepBenchReport::traced_core_share_of_kernels() const {
  double all = timeline->unclassified_seconds;
  for (const double seconds : timeline->seconds) all += seconds;
  return core_seconds(*timeline) / all;
}

double StepBenchReport::iteration_seconds() const {
  return profiled_phases[solve_phase].total().seconds / static_cast<double>(profiled_iterations);
}

double StepBenchReport::bound_iteration_seconds() const {
  return profiled_phases[solve_phase].total().bytes / static_cast<double>(profiled_iterations) /
         (copy_gb_per_s * 1e9);
}

StepBenchReport run_step_bench(run::Simulation& sim, const StepBenchSettings& settings) {
  StepBenchReport report;
  report.case_name = sim.config.name;
  report.cells = sim.cells();
  report.steps = settings.steps;
  report.slice_height = uploaded_slice_height(sim);
  report.memory_bytes =
      run::estimate_memory(sim.config, sim.mesh, sim.host_operators, report.slice_height).total();

  const bool was_profiling = sim.exec.profiling();
  sim.exec.set_profiling(false);
  time_steps(sim, settings.warmup);
  const TimedSteps timed = time_steps(sim, settings.steps);
  report.wall_seconds = timed.wall_seconds;
  report.poisson_iterations = timed.iterations;
  report.queued_iterations = timed.queued_iterations;
  report.phases = timed.phases;

  if (sim.exec.backend() == Backend::cuda && KernelTrace::available()) {
    std::optional<KernelTrace> trace;
    try {
      trace.emplace();
    } catch (const Error& e) {  // CUPTI taken by another tool (a profiler, compute-sanitizer)
      report.trace_note = e.what();
    }
    if (trace) {
      sim.exec.set_tracing(true);
      time_steps(sim, 1);  // PCG's loop recorded again, under the trace (Executor::set_tracing)
      trace->discard();
      report.traced_wall_seconds = time_steps(sim, settings.steps).wall_seconds;  // synchronised at the end
      report.timeline = trace->stop();
      sim.exec.set_tracing(false);
    }
  }

  sim.exec.set_profiling(true);
  const TimedSteps profiled = time_steps(sim, settings.steps);
  sim.exec.set_profiling(was_profiling);
  report.profiled_wall_seconds = profiled.wall_seconds;
  report.profiled_iterations = profiled.iterations;
  report.profiled_phases = profiled.phases;
  return report;
}

}  // namespace miniapp::bench
