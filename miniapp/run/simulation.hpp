#pragma once
#include <array>
#include <memory>
#include <optional>

#include "mesh/geometry.hpp"
#include "miniapp/case/case_config.hpp"
#include "miniapp/run/memory_estimate.hpp"
#include "miniapp/time/fractional_step.hpp"
#include "operators/kernels/aip_kernels.hpp"
#include "operators/fv/flow_operators.hpp"
#include "parallel/subdomain.hpp"

namespace miniapp::run {

class PressurePathChoice;

// A case made ready to integrate: mesh, operators on the executor, integrator and fields. Built by
// set_up_simulation in the order of the method: whole input checked first, then pre-processing on the
// host, then one upload. On several ranks each holds its part of the mesh (owned cells, then halo).
struct Simulation {
  cases::CaseConfig config;
  std::string case_path;
  mesh::Mesh mesh;  // this rank's cells: owned, then halo (the whole mesh on one rank)
  std::optional<mesh::Mesh> owned_piece;  // several ranks: the owned cells alone, for VTK
  long long global_cells = 0;
  // The global (whole-mesh) index of each owned cell, in to_mesh_order's order.
  std::vector<index_t> global_cell_index;
  mesh::MeshGeometry geometry;
  // After the upload only what the run reads again: cell_order, boundaries, volume, inverse_volume,
  // laplacian (time::DeviceOperators releases the rest).
  fv::FlowOperators host_operators;
  // G on the host, kept by the upload only when the case has probes (their interpolation weights).
  std::array<CsrMatrix, 3> probe_cell_gradient;
  // The executor memory the set-up estimated before its first upload (and checked against the device).
  MemoryEstimate memory_estimate;
  Executor exec = Executor::cpu();
  std::unique_ptr<parallel::Subdomain> domain;
  std::unique_ptr<time::DeviceOperators> operators;
  std::unique_ptr<time::FractionalStep> scheme;
  std::unique_ptr<time::FlowFields> fields;
  // The form the pressure solver's AIP took (DeviceAipFactor: the one that moves fewer bytes on this
  // matrix); empty for Jacobi and the FFT path.
  std::optional<AipForm> aip_form;
  // numerics.poisson = "auto" with both paths built: the solver that holds them and chooses (the
  // integrator owns it); nullptr otherwise.
  PressurePathChoice* pressure_path = nullptr;

  index_t cells() const { return mesh.cell_count(); }  // this rank's, halo included
  int rank() const { return domain->rank(); }
  int ranks() const { return domain->ranks(); }
  // The mesh of this rank's output piece: its owned cells.
  const mesh::Mesh& output_mesh() const { return owned_piece ? *owned_piece : mesh; }
};

// Builds everything; prints one line per set-up stage with its time to `log`. The fields hold the
// initial condition (fields->step = 0) with consistent face velocity and first Δt. `comm`: the ranks
// of a multi-rank run (collective over them), nullptr for one process; `transport`: how its halos
// travel (--comm).
Simulation set_up_simulation(cases::CaseConfig config, const std::string& case_path, std::ostream& log,
                             const parallel::Communicator* comm = nullptr,
                             parallel::HaloTransport transport = parallel::HaloTransport::mpi);

// The case's numerics (poisson and preconditioner, what "auto" chose and why) and sim.aip_form from
// the path sim.pressure_path solves with (the FFT path until it has chosen); returns the new
// poisson_choice where it changed, "" otherwise or without sim.pressure_path. After set-up, after a
// restart has repeated the checkpointed run's choice, and after each step.
std::string take_pressure_path(Simulation& sim);

// What the pressure solver's timed solves chose since the last call, a line each ("" where nothing):
// the FFT path's leading blocks, then the path (take_pressure_path). After each step.
std::string take_pressure_choices(Simulation& sim);

// Where the pressure solver has yet to choose by timing (its path, the FFT path's leading blocks),
// advances the fields until it has (steps up to PressurePathChoice::last_timed_step), for the
// measurements that time a step of the solver the run will keep. Returns take_pressure_choices' lines
// of those steps.
std::string settle_pressure_path(Simulation& sim);

// One condition per patch of `mesh` (the whole mesh or a rank's), from the case, whose boundary tables
// validate_boundaries has checked against the whole mesh.
fv::FlowBoundaries flow_boundaries(const cases::CaseConfig& config, const mesh::Mesh& mesh);

// Host copies of the owned cells' values of a cell field, in the order of output_mesh()'s cells (the
// executor holds them in the operators' order).
std::vector<double> to_mesh_order(const Simulation& sim, const Vector& field);
// The inverse: owned values in output_mesh() order → the operators' order on the executor. The halo of
// `out` is left as it was.
void from_mesh_order(const Simulation& sim, const std::vector<double>& field, Vector& out);

}  // namespace miniapp::run
