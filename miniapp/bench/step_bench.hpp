#pragma once
#include <array>
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

#include "miniapp/bench/kernel_trace.hpp"
#include "miniapp/run/simulation.hpp"
#include "operators/backend/kernel_counters.hpp"

namespace miniapp::bench {

struct StepBenchSettings {
  int warmup = 3;  // untimed steps first (first-step Euler, caches, lazy allocations)
  int steps = 10;  // timed steps, then as many again with profiling on
};

// Everything one `miniapp bench step` run measured. Counters and iterations are sums over the
// `steps` timed steps; `profiled_*` over the `steps` steps run with Executor::set_profiling(true),
// whose per-kernel seconds are exact on CUDA.
struct StepBenchReport {
  std::string device, date, case_name;
  index_t cells = 0;
  int steps = 0;
  double copy_gb_per_s = 0;
  double wall_seconds = 0;           // the timed steps, profiling off, synchronised at both ends
  long long poisson_iterations = 0;  // over the timed steps
  long long queued_iterations = 0;   // the same, with those queued past the stop (PcgResult::queued_iterations)
  std::array<KernelCounters, time::phase_count> phases;  // the timed steps' counters by phase
  double profiled_wall_seconds = 0;
  long long profiled_iterations = 0;
  std::array<KernelCounters, time::phase_count> profiled_phases;
  // The device's timeline over the timed steps run again from the same state (graphs, loops and
  // all), where the build has CUPTI and the backend is CUDA (KernelTrace), and their wall time (the
  // tracer slows them).
  std::optional<KernelTimeline> timeline;
  double traced_wall_seconds = 0;
  // The traced and the profiled steps, run again from the timed steps' start, did the same Poisson
  // iterations and ended with the timed steps' fields, bit for bit.
  bool replays_identical = false;
  std::string trace_note;  // why there is no timeline although the build has CUPTI
  std::size_t memory_bytes = 0;      // run::estimate_memory(...).total()
  index_t slice_height = 0;

  double step_seconds() const { return wall_seconds / steps; }
  double bytes_per_step() const;
  // bytes / copy bandwidth: the step time if every kernel ran at the copy bandwidth.
  double bound_step_seconds() const { return bytes_per_step() / (copy_gb_per_s * 1e9); }
  // The bytes counted for the Poisson iterations queued past the stop, which do nothing but read the
  // status: the solve's bytes per step in proportion to queued − done iterations (an upper bound, the
  // solve's set-up being spread over its iterations).
  double no_op_bytes_per_step() const;
  // The bound without those bytes: the stricter fraction.
  double useful_bound_step_seconds() const {
    return (bytes_per_step() - no_op_bytes_per_step()) / (copy_gb_per_s * 1e9);
  }
  // Time of SpMV, AXPY and DOT kernels over the profiled wall time (CPU: its kernels are always timed).
  double core_kernel_share() const;
  // The share the targets speak of: SpMV, AXPY and DOT kernels' time on the device's timeline over
  // the step's wall time, the timed steps' own (untraced). Both are of the same steps when
  // `replays_identical`. It takes the traced kernels' durations for the untraced ones: the trace does
  // not slow the kernels' own work, and it lengthens what CUPTI counts as a kernel by at most a
  // fraction of a microsecond (tools/ubench/trace_overhead.cu measures both). Needs `timeline`.
  double core_share_of_step() const;
  // The untraced step's time less the timeline's busy time, over the step's time: the device's idle
  // time between kernels (negative if the traced kernels took longer than the untraced steps).
  double idle_share_of_step() const;
  // The same kernels' time over the traced steps' own wall time, which the tracer lengthens (most on
  // small meshes): what this bench reported as the share before the steps were replayed.
  double core_share_of_traced_step() const;
  // The same kernels' time over all kernels' and copies' time on the timeline: how the paper that the
  // method comes from measures the share (the rest is the other operations: LES model, CFL), the
  // device's idle time between kernels not counted. Needs `timeline`.
  double core_share_of_kernels() const;
  // Poisson-solve kernel seconds per PCG iteration, and its bytes per iteration at the copy bandwidth
  // (both from the profiled steps, so that the iteration counts match).
  double iteration_seconds() const;
  double bound_iteration_seconds() const;
  double bytes_per_cell() const { return static_cast<double>(memory_bytes) / cells; }
};

// Runs `settings.warmup` untimed steps of `sim`, then `settings.steps` timed ones (wall time, the
// executor synchronised before and after); then the same steps again from the same state with
// profiling on, and on CUDA with CUPTI also traced (StepBenchReport::timeline); fills every field but
// the device, date and copy bandwidth. Leaves sim.fields advanced by warmup + steps steps.
StepBenchReport run_step_bench(run::Simulation& sim, const StepBenchSettings& settings);

// Table: time per step, bytes, bandwidth-bound time and fraction, kernel shares, PCG iteration,
// memory per cell and the largest mesh that fits in 80 GB.
void print_step_report(std::ostream& out, const StepBenchReport& report);

// The same numbers as JSON, per phase and kernel kind too; throws miniapp::Error naming the file
// when it cannot be written.
void write_step_json(const std::string& path, const StepBenchReport& report);

}  // namespace miniapp::bench
