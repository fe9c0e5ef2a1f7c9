#pragma once
#include <optional>
#include <string>

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

// Stops the run (throws miniapp::Error; parallel::CollectiveError on several ranks, where every rank
// sees the same global values) when the solution is no longer finite or the CFL number exploded.
// `kinetic_energy`: of the step's diagnostics row, 0 on steps without one (the CFL number, computed
// every step, turns NaN or huge once the velocity does). The message gives the step and time, the
// first field and cell (global index and centroid) that is not finite, and what is left to restart
// from. Collective on several ranks when a check fails.
void check_health(const Simulation& sim, const time::StepReport& report, double kinetic_energy,
                  const CheckpointRecord& checkpoints);

}  // namespace miniapp::run
