#pragma once
#include <array>

#include "miniapp/predict/comm_profile.hpp"
#include "miniapp/run/simulation.hpp"

// What one time step of a case does, taken from the instrumented backend (never typed in): kernel
// calls, bytes and flops per phase of Algorithm 1, split into the fixed part and the part per Poisson
// iteration; and, for the verification, measured times.
namespace miniapp::predict {

struct KindLoad {
  double calls = 0, bytes = 0, flops = 0;
};
using PhaseLoad = std::array<KindLoad, kernel_kind_count>;

struct StepCounts {
  std::array<PhaseLoad, time::phase_count> fixed{};  // per step, Poisson iterations excluded
  PhaseLoad per_iteration{};                         // per Poisson iteration (phase 2.2)
  double iterations = 0;       // mean Poisson iterations per counted step
  bool iteration_split = true; // false: every counted solve took as many iterations, the set-up of
                               // the solve is folded into per_iteration (exact at `iterations` only)
  // Host round trips per Poisson iteration: the fused PCG keeps its scalars on the device and reads
  // them once every check_interval iterations (solvers/pcg.hpp; 1 / default_check_interval). Its
  // DOT-class calls (cg_rho) do not return to the host; the DOTs of the set-up and of the other
  // phases (dot, multi_dot) all do.
  double iteration_host_reads = 0;
  // The Poisson iterations ran as replays of a recorded kernel graph (Pcg with PcgOptions::graphs on
  // CUDA: every counted solve replayed at least one batch), so their calls are priced by the graph
  // curves (Calibration::graph_curves).
  bool iteration_graphs = false;
  // This rank's halo updates and global reductions (none on one rank), split like the kernels.
  PhaseComm comm_fixed{};
  CommLoad comm_per_iteration{};
  // The load of `phase` for a step whose Poisson solve takes `it` iterations.
  PhaseLoad load(time::Phase phase, double it) const;
  CommLoad comm(time::Phase phase, double it) const;
};

// Advances `sim` by one warm-up step (first touch, Euler start) and then `steps` counted steps
// (steps ≥ 1), and returns their mean kernel load per phase, and on several ranks this rank's
// communication (reported by sim.domain, comm_recorder.hpp; collective then). The per-iteration part
// of the solve is the least-squares slope of its counters against the iteration count over all these
// steps (exact: the counts are linear in it); with a single iteration count it cannot be separated
// (iteration_split).
StepCounts count_step(run::Simulation& sim, int steps);

// Measured time per step of `steps` further steps: wall time of FractionalStep::advance, and per phase
// the kernels' own seconds (CPU: every kernel is timed; CUDA: a second pass with profiling on, which
// synchronises after each kernel).
struct StepMeasurement {
  int steps = 0;
  double step_seconds = 0;  // mean wall time per step
  // Mean kernel seconds per step by phase and kernel kind.
  std::array<std::array<double, kernel_kind_count>, time::phase_count> kernel_seconds{};
  // Mean seconds per step of each phase spent in halo updates outside kernels (0 on one rank; the
  // reductions' time is not seen, comm_recorder.hpp, and stays in the step's wall time only).
  std::array<double, time::phase_count> comm_seconds{};
  // Kernels and communication of a phase.
  double phase_seconds(time::Phase p) const;
  double iterations = 0;    // mean Poisson iterations per step
};
StepMeasurement measure_steps(run::Simulation& sim, int steps);

}  // namespace miniapp::predict
