#pragma once
#include <iosfwd>
#include <string>

#include "miniapp/output/checkpoint.hpp"
#include "miniapp/run/simulation.hpp"

// Checkpoint generations written and read by all ranks together, so that the files of one step are
// either all usable or ignored as a whole (output/checkpoint_generations.hpp).
namespace miniapp::run {

// Writes the generation of the current step (collective): every rank writes its file to a temporary
// and syncs it; once all have, each renames its own into place; then rank 0 marks the generation
// complete and drops the markers beyond the newest `keep`, and every rank removes its files of
// generations no longer marked. `extra`: observers' arrays and scalars to carry (may be empty).
void save_checkpoint(const Simulation& sim, const std::string& dir, int keep,
                     const output::CheckpointData& extra = {});

// Restores the newest complete generation of `dir` that every rank reads back intact (collective).
// A damaged or inconsistent generation is reported on `out` and the next older one tried; a
// checkpoint of another rank count, mesh or physics (Re, LES model, boundary velocities...), or no
// usable generation at all, stops every rank with one message. When `dir` is also the run's output
// folder, generations newer than the one restored (which the run will write again) are removed.
// Returns the restored data, whose extra arrays and scalars belong to the observers.
output::CheckpointData restore_checkpoint(Simulation& sim, const std::string& dir, std::ostream& out);

}  // namespace miniapp::run
