#pragma once
#include <optional>
#include <string>

#include "miniapp/run/energy_watch.hpp"
#include "miniapp/run/simulation.hpp"
#include "miniapp/time/fractional_step.hpp"

namespace miniapp::run {

// What the run can say about its checkpoints when it stops: the step of the last one it wrote or
// restarted from (none yet: empty), and the folder.
struct CheckpointRecord {
  std::optional<long> last_step;
  std::string directory;
  double next_time = 0;  // when the next one is due (infinity: only at the end)
};

// Stops a run whose solution runs away, after each step, from what the step and its diagnostics row
// already reduced (no reduction or host read of its own while the run is healthy): the solution is no
// longer finite, the CFL number exploded, or the row's kinetic energy ran away (EnergyWatch: the
// runaway modes of the cell velocity that the face velocity's CFL number does not see).
class HealthCheck {
 public:
  // Collective on several ranks (the domain's volume, summed once).
  explicit HealthCheck(const Simulation& sim);

  // Throws miniapp::Error (parallel::CollectiveError on several ranks, where every rank sees the same
  // global values) with the step and time, what ran away and by how much, the first field and cell
  // (global index and centroid) not finite where one is, which checkpoint to restart from, and the
  // setting to change. `kinetic_energy`: of the step's diagnostics row, empty on steps without one.
  // Collective on several ranks when a check fails.
  void check(const time::StepReport& report, std::optional<double> kinetic_energy,
             const CheckpointRecord& checkpoints);

 private:
  const Simulation& sim_;
  EnergyWatch energy_;
};

}  // namespace miniapp::run
