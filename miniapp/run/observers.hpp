#pragma once
#include <chrono>
#include <iosfwd>
#include <optional>

#include "miniapp/output/vtk_writer.hpp"
#include "miniapp/run/diagnostics_observer.hpp"
#include "miniapp/run/probes.hpp"
#include "miniapp/run/profiles.hpp"
#include "miniapp/run/snapshot.hpp"
#include "miniapp/run/time_averages.hpp"
#include "miniapp/run/wall_monitor.hpp"

namespace miniapp::run {

// What the run loop records besides the step, configured by the case: diagnostics.csv (the integrals,
// the energy budget, the wall patches' u_τ and y⁺), forces_<patch>.csv and probes.csv every
// output.diagnostics_interval steps; the time averages of [statistics]; VTK output. Collective where
// it reduces over ranks; rank 0 writes the shared files. docs/statistics.md describes the files.
class Observers {
 public:
  // `restored`: the checkpoint a restarted run continues from (its observers' arrays), else nullptr.
  Observers(const Simulation& sim, const output::CheckpointData* restored);

  // After a step: the time averages' sample, when due (queued on the executor). Whether one was taken.
  bool sample_statistics();
  // After a step: the diagnostics row when due, and always for the run's last step, so that the files
  // end where the run ended (with forces and probes). Returns the row's kinetic energy (empty when the
  // step has none). `step_start`: when the step began (the row's wall seconds).
  std::optional<double> record_row(const time::StepReport& report, std::chrono::steady_clock::time_point step_start,
                    bool last_step);
  // The kinetic energy of the current fields without a row, for a step whose state the run saves
  // (collective; the whole evaluation of a row, which such rare steps can afford).
  double kinetic_energy();
  // The files written at output times: VTK fields (with the means), profiles.
  void write_output();
  // The observers' state a restart continues bitwise (named checkpoint arrays).
  NamedArrays checkpoint_arrays() const;

 private:
  const Simulation& sim_;
  WallMonitor walls_;
  Probes probes_;
  DiagnosticsObserver diagnostics_;
  time::ResultBatch row_results_;  // a row's sums and samples, read back together
  std::optional<TimeAverages> averages_;
  std::optional<Profiles> profiles_;
  std::optional<output::VtkWriter> vtk_;
};

}  // namespace miniapp::run
