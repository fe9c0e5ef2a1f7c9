#include "miniapp/bench/step_bench.hpp"

#include <chrono>
#include <vector>

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

// The flow state the scheme advances, copied to the host: the traced and the profiled steps start
// again from the timed steps' start, so that all three runs do the same work, and their ends are
// compared bit for bit.
struct FlowState {
  std::vector<std::vector<double>> vectors;
  double time = 0, dt = 0, dt_old = 0;
  long step = 0;
  bool operator==(const FlowState&) const = default;
};

FlowState save_state(time::FlowFields& f) {
  FlowState state{{}, f.time, f.dt, f.dt_old, f.step};
  for (const Vector* v : f.vectors()) state.vectors.push_back(v->to_host());
  return state;
}

void restore_state(const FlowState& state, time::FlowFields& f) {
  const auto vectors = f.vectors();
  for (std::size_t i = 0; i < vectors.size(); ++i) vectors[i]->copy_from_host(state.vectors[i]);
  f.time = state.time;
  f.dt = state.dt;
  f.dt_old = state.dt_old;
  f.step = state.step;
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

double StepBenchReport::core_share_of_step() const { return core_seconds(*timeline) / wall_seconds; }

double StepBenchReport::idle_share_of_step() const { return 1 - timeline->busy_seconds / wall_seconds; }

double StepBenchReport::core_share_of_traced_step() const { return core_seconds(*timeline) / traced_wall_seconds; }

double StepBenchReport::core_share_of_kernels() const {
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
  report.memory_bytes = sim.memory_estimate.total();

  const bool was_profiling = sim.exec.profiling();
  sim.exec.set_profiling(false);
  time_steps(sim, settings.warmup);
  const FlowState start = save_state(*sim.fields);
  const TimedSteps timed = time_steps(sim, settings.steps);
  const FlowState end = save_state(*sim.fields);
  report.wall_seconds = timed.wall_seconds;
  report.poisson_iterations = timed.iterations;
  report.queued_iterations = timed.queued_iterations;
  report.phases = timed.phases;
  report.replays_identical = true;
  const auto replayed = [&](const TimedSteps& replay) {
    report.replays_identical = report.replays_identical && replay.iterations == timed.iterations &&
                               save_state(*sim.fields) == end;
  };

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
      restore_state(start, *sim.fields);
      sim.exec.synchronize();
      trace->discard();
      const TimedSteps traced = time_steps(sim, settings.steps);  // synchronised at the end
      report.timeline = trace->stop();
      sim.exec.set_tracing(false);
      report.traced_wall_seconds = traced.wall_seconds;
      replayed(traced);
    }
  }

  restore_state(start, *sim.fields);
  sim.exec.set_profiling(true);
  const TimedSteps profiled = time_steps(sim, settings.steps);
  sim.exec.set_profiling(was_profiling);
  replayed(profiled);
  report.profiled_wall_seconds = profiled.wall_seconds;
  report.profiled_iterations = profiled.iterations;
  report.profiled_phases = profiled.phases;
  return report;
}

}  // namespace miniapp::bench
