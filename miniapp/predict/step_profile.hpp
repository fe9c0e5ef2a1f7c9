#pragma once
#include <array>

#include <optional>
#include <vector>

#include "miniapp/predict/calibration.hpp"
#include "miniapp/predict/comm_profile.hpp"
#include "miniapp/run/simulation.hpp"

// What one time step of a case does, taken from the instrumented backend (never typed in): kernel
// calls, bytes and flops per phase of Algorithm 1, split into the fixed part and the part per Poisson
// iteration; and, for the verification, measured times.
namespace miniapp::predict {

struct KindLoad {
  double calls = 0, bytes = 0, flops = 0;
  KindLoad& operator+=(const KindLoad& o) {
    calls += o.calls, bytes += o.bytes, flops += o.flops;
    return *this;
  }
  KindLoad operator-(const KindLoad& o) const { return {calls - o.calls, bytes - o.bytes, flops - o.flops}; }
  KindLoad operator*(double s) const { return {calls * s, bytes * s, flops * s}; }
  KindLoad operator/(double d) const { return {calls / d, bytes / d, flops / d}; }
};
using PhaseLoad = std::array<KindLoad, kernel_kind_count>;
// A phase's SpMV calls by form (KernelCounters::spmv_tally) as counted: the prices split the phase's
// SpMV load, scaled to any device count, in these shares of its calls and bytes, each form on its own
// curve. None counted (all zero): every SpMV on the one-vector sELL curve.
using SpmvForms = std::array<KindLoad, spmv_form_count>;

// One size of launched Poisson iterations: its share of them, its bytes over their mean, and for
// batched systems the systems it ran over, their rows and its leading blocks' preconditioner bytes
// over the mean (IterationSize).
struct IterationShare {
  double share = 0, bytes_ratio = 0;
  double systems = 0, rows = 0;
  double preconditioner_ratio = 0;
};

struct StepCounts {
  std::array<PhaseLoad, time::phase_count> fixed{};  // per step, Poisson iterations excluded
  PhaseLoad per_iteration{};                         // per Poisson iteration (phase 2.2)
  std::array<SpmvForms, time::phase_count> fixed_spmv{};  // the SpMVs of `fixed` by form
  SpmvForms per_iteration_spmv{};                         // and of `per_iteration`
  double iterations = 0;       // mean Poisson iterations per counted step
  // Iterations launched per iteration done: on the FFT path's batched PCG, whose batches of
  // check_interval iterations run whole over the systems still running at their start, the launched
  // iterations are its work (Σ queued / Σ done over the counted steps; 1 on the CPU, which checks
  // every iteration). 1 for Pcg, whose iterations queued past the stop do nothing (a few µs a solve).
  double launched_per_iteration = 1;
  // The FFT path's launched iterations by size over the counted steps (PcgResult::iteration_sizes: its
  // systems leave the iterations one by one): a unit prices each size apart, its cost not being
  // linear in bytes (a floor of latency under the narrow iterations). Empty where every iteration
  // moves the same.
  std::vector<IterationShare> iteration_spread{};
  // Host round trips (KernelCounters::host_reads: calls that returned a value to the host) per step of
  // each phase, Poisson iterations excluded, and per Poisson iteration: the fused PCG keeps its
  // scalars on the device and reads them once every check_interval iterations (1/8 on CUDA), or once
  // per solve where CUDA runs its batches as a device loop (host_reads_per_iteration).
  std::array<double, time::phase_count> fixed_host_reads{};
  double iteration_host_reads = 0;
  // The Poisson iterations ran as replays of a recorded kernel graph (Pcg with PcgOptions::graphs on
  // CUDA: every counted solve replayed at least one batch), so their calls are priced by the graph
  // curves (Calibration::graph_curves).
  bool iteration_graphs = false;
  // Per phase: every counted step ran it as a replay of a recorded graph (SubStepGraph, CUDA on one
  // rank), so its calls are priced by the graph curves.
  std::array<bool, time::phase_count> fixed_graphs{};
  // The solver and preconditioner of the Poisson iterations, where the calibration can time them as
  // one unit (Calibration::iteration_curves): Pcg with Jacobi, AIP-1 or AMG, the FFT path's batched
  // PCG, on one rank.
  std::optional<IterationUnit> iteration_unit;
  // This rank's halo updates and global reductions (none on one rank), split like the kernels.
  PhaseComm comm_fixed{};
  CommLoad comm_per_iteration{};
  // The iterations launched for `it` done.
  double launched(double it) const { return it * launched_per_iteration; }
  // The load of `phase` for a step whose Poisson solve takes `it` iterations.
  PhaseLoad load(time::Phase phase, double it) const;
  CommLoad comm(time::Phase phase, double it) const;
};

// Advances `sim` through the steps that time both pressure paths, if it has yet to choose one
// (run::settle_pressure_path), by one warm-up step (first touch, Euler start) and then `steps` counted steps
// (steps ≥ 1), and returns their mean kernel load per phase, and on several ranks this rank's
// communication (reported by sim.domain, comm_recorder.hpp; collective then). The per-iteration part
// of the solve is what the solver counted its iterations make (PcgResult::iteration_kernels) over the
// queued iterations (PcgResult::queued_iterations: whole batches) of all these steps, the rest its
// set-up and finish; the communication's is the least-squares slope of it against the queued count
// (with a single count all of it per iteration). On the FFT path, whose systems leave the iterations
// one by one, the transforms are the set-up and every other call of the solve is iteration work, per
// queued iteration; its host reads are split as the solver counted them.
StepCounts count_step(run::Simulation& sim, int steps);

// Measured time per step of 3 × `steps` further steps (after the pressure path's choice, as
// count_step): the wall time of FractionalStep::advance; per
// phase its time on the executor (a second pass with a timing StepMeter: device time between
// events on CUDA, wall time on the CPU); and per phase and kind the kernels' own seconds (CPU: every
// kernel is timed in the first pass; CUDA: a third pass with profiling on, which synchronises after
// each kernel, so its seconds hold a launch and a round trip per kernel).
struct StepMeasurement {
  int steps = 0;
  double step_seconds = 0;  // mean wall time per step
  // Mean seconds per step of each phase from its start to its end on the executor, communication
  // included.
  std::array<double, time::phase_count> timed_seconds{};
  // Mean kernel seconds per step by phase and kernel kind.
  std::array<std::array<double, kernel_kind_count>, time::phase_count> kernel_seconds{};
  // Mean seconds per step of each phase spent in halo updates outside kernels (0 on one rank; the
  // reductions' time is not seen, comm_recorder.hpp, and stays in the step's wall time only).
  std::array<double, time::phase_count> comm_seconds{};
  // The measured time of a phase: timed_seconds.
  double phase_seconds(time::Phase p) const { return timed_seconds[static_cast<int>(p)]; }
  double iterations = 0;    // mean Poisson iterations per step
};
StepMeasurement measure_steps(run::Simulation& sim, int steps);

}  // namespace miniapp::predict
