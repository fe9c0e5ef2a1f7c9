#pragma once
#include <optional>
#include <vector>

#include "miniapp/predict/prediction.hpp"
#include "parallel/communicator.hpp"

// A run of `miniapp predict` on P ranks: what each rank counted and measured, brought to rank 0,
// and the prediction of the slowest rank (thesis §2.4: every phase waits for the slowest rank at its
// next halo update or reduction).
namespace miniapp::predict {

// This rank's sizes: cells it computes on (owned + halo), owned, inner (no halo neighbour), halo
// cells, and the bytes it allocated on its device.
struct RankShape {
  double local = 0, owned = 0, inner = 0, halo = 0, working_set = 0;
};

struct RankProfile {
  StepCounts counts;
  RankShape shape;
  std::optional<StepMeasurement> measured;
};

// Every rank's profile, in rank order, on every rank (collective: one allreduce; `comm` nullptr for
// one process). `mine.measured` must be set on all ranks or on none.
std::vector<RankProfile> gather_profiles(const parallel::Communicator* comm, const RankProfile& mine);

// The step of the slowest rank on profiles.size() ranks: each rank's own loads priced, then per phase
// the maximum over ranks (the step is their sum).
StepPrediction slowest_rank_step(const std::vector<RankProfile>& ranks, const Calibration& c, double iterations);

// The measurement of the slowest rank: per phase the rank whose kernels + communication took longest,
// the step's wall time the largest. Precondition: every profile has `measured`.
StepMeasurement slowest_rank_measurement(const std::vector<RankProfile>& ranks);

}  // namespace miniapp::predict
