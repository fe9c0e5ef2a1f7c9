#pragma once
#include <array>
#include <string_view>

#include "operators/backend/kernel_counters.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::time {

// The sub-steps of thesis Algorithm 1, as rows of its Table 2.1.
enum class Phase { predictor, poisson_rhs, poisson_solve, correction, face_velocity, eddy_viscosity, time_step };
inline constexpr int phase_count = 7;
std::string_view name(Phase phase);

// Thesis Table 2.1: calls of SpMV, AXPY, DOT per sub-step of Algorithm 1 (the Poisson solve per
// iteration), shown beside the counted calls.
struct ThesisRow {
  int spmv, axpy, dot;
};
inline constexpr ThesisRow thesis_table_2_1[phase_count] = {
    {8, 6, 0}, {3, 1, 0}, {2, 3, 2}, {3, 3, 0}, {7, 0, 0}, {9, 0, 2}, {0, 0, 0}};

// What one step did, for diagnostics, progress and the kernel-count report.
struct StepReport {
  PcgResult poisson;
  std::array<KernelCounters, phase_count> kernels;  // calls, bytes, flops per phase (StepMeter)
  double dt = 0;   // the step just taken
  double cfl = 0;  // Δt of the step just taken over its stability limit (TimeStepControl)
  // Per phase, the executor's time from its first call to the end of its last (WorkClock: device time
  // on CUDA, wall time on the CPU); zeros unless the step's StepMeter times phases.
  std::array<double, phase_count> phase_seconds{};
  // Per phase: its kernels ran as a replay of a recorded graph (SubStepGraph), not launched one by one.
  std::array<bool, phase_count> replayed{};
};

}  // namespace miniapp::time
