#pragma once
#include <iosfwd>
#include <optional>
#include <string>

#include "miniapp/run/simulation.hpp"

namespace miniapp::run {

struct RunOptions {
  std::optional<std::string> restart_dir;  // continue from the checkpoint in this folder
  bool quiet = false;                      // no progress lines
};

// What the run did, for the final report.
struct RunSummary {
  long steps = 0;             // steps taken by this run
  double wall_seconds = 0;    // time loop only (everything below included)
  double step_seconds = 0;    // time inside FractionalStep::advance
  // The observers' time after the steps (their kernels waited for, so that none is left to the next
  // step's account): diagnostics rows (with forces and probes) and the time averages' samples.
  double row_seconds = 0, sample_seconds = 0;
  double observer_seconds() const { return row_seconds + sample_seconds; }
  // Files inside the loop: output (VTK, profiles) and checkpoints (the one at the end included).
  double output_seconds = 0, checkpoint_seconds = 0;
  KernelCounters monitor_kernels;  // the kernels of the diagnostics rows and samples
  long poisson_iterations = 0;
  int stop_signal = 0;        // the signal that stopped the run early (SIGTERM...), 0 if none
  std::array<KernelCounters, time::phase_count> phase_kernels;  // summed over the steps
};

// Integrates until the case's end time or step count, with the observers of the case (Observers:
// diagnostics, forces, probes, averages), VTK output and checkpoints at their intervals and at the
// end, progress lines, and a stop with a clear message (naming what is left to restart from) when
// the solution stops being finite or the CFL number explodes. SIGTERM, SIGINT or SIGHUP on any rank
// stops every rank after the current step with a checkpoint (RunSummary::stop_signal); on several
// ranks a rank that stops answering ends the job (run.watchdog_timeout). A restart already at the
// end says so and returns with no step taken.
RunSummary run_simulation(Simulation& sim, const RunOptions& options, std::ostream& out);

// The end-of-run report: time per step and per cell, kernel calls per step by phase beside thesis
// Table 2.1, and the kernel counter table.
void print_summary(const Simulation& sim, const RunSummary& summary, std::ostream& out);

}  // namespace miniapp::run
