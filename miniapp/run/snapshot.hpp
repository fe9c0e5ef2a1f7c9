#pragma once
#include <array>
#include <string>

#include "miniapp/output/checkpoint.hpp"
#include "miniapp/output/vtk_writer.hpp"
#include "miniapp/run/simulation.hpp"
#include "miniapp/run/time_averages.hpp"

// Moving the state between executor memory and files: VTK output and checkpoints. Cell arrays are
// stored in mesh cell order, so files do not depend on the backend's reordering.
namespace miniapp::run {

// Writes the current fields; `gradient`, g_ab at index 3a + b in mesh order, is the velocity gradient
// of the current velocity (FlowDiagnostics::for_each_gradient_column), used for vorticity and Q;
// `means`: the time averages, when the case has [statistics].
void write_vtk(const Simulation& sim, const std::array<std::vector<double>, 9>& gradient, output::VtkWriter& vtk,
               const TimeAverages::Means* means = nullptr);

using NamedArrays = std::vector<std::pair<std::string, std::vector<double>>>;

// The case settings a restart must keep (physics and boundary conditions), for the checkpoint.
output::CaseSettings case_settings(const cases::CaseConfig& config);

// This rank's restart state: owned cells' velocities, pressure, eddy viscosity; the rank's face
// velocity and viscosity; time, Δt history, step; the case settings; then the arrays and scalars of
// `extra` (observers' own state).
output::CheckpointData checkpoint_data(const Simulation& sim, const output::CheckpointData& extra);

// Loads the owned values, step and time of `data` (from checkpoint_data on this rank) into the
// fields; throws miniapp::Error when an array is missing or of another size. Not collective.
void load_checkpoint_fields(Simulation& sim, const output::CheckpointData& data);
// Makes the pressure solver's timed choices that `data` carries (PressureSolver::timed_choices) again;
// returns what now differs from the set-up's choice ("" when nothing). Not collective.
std::string repeat_timed_choices(Simulation& sim, const output::CheckpointData& data);
// Completes a restore once every rank has loaded its fields: halos from their owners, and the Δt of
// the restored state (collective).
void finish_restore(Simulation& sim);

}  // namespace miniapp::run
