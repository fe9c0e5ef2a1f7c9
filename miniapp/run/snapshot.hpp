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

// Writes the current fields; `gradient` is the velocity gradient of the current velocity
// (FlowDiagnostics::gradient), used for vorticity and Q; `means`: the time averages, when the case
// has [statistics].
void write_vtk(const Simulation& sim, const std::array<Vector, 9>& gradient, output::VtkWriter& vtk,
               const TimeAverages::Means* means = nullptr);

using NamedArrays = std::vector<std::pair<std::string, std::vector<double>>>;

// Writes this rank's restart state (owned cells' velocities, pressure, eddy viscosity; the rank's face
// velocity and viscosity; time, Δt history, step; the observers' `extra` arrays) atomically to
// <dir>/checkpoint_r<rank>.bin.
void save_checkpoint(const Simulation& sim, const std::string& dir, NamedArrays extra = {});

// Loads the state written by save_checkpoint and updates the halos (collective); returns what was read,
// for the observers' arrays. Throws miniapp::Error for a checkpoint of another mesh, rank count, or a
// damaged file.
output::CheckpointData restore_checkpoint(Simulation& sim, const std::string& dir);

}  // namespace miniapp::run
