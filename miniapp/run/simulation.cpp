#include "miniapp/run/simulation.hpp"

#include <algorithm>
#include <iomanip>
#include <optional>
#include <ostream>
#include <utility>
#include <vector>

#include "miniapp/case/case_mesh.hpp"
#include "miniapp/case/case_validation.hpp"
#include "miniapp/run/case_amg_options.hpp"
#include "miniapp/run/host_memory_report.hpp"
#include "miniapp/case/preconditioner_choice.hpp"
#include "miniapp/run/memory_estimate.hpp"
#include "miniapp/run/pressure_path_choice.hpp"
#include "miniapp/run/pressure_solver_setup.hpp"
#include "miniapp/run/rank_executor.hpp"
#include "miniapp/run/rank_mesh.hpp"
#include "miniapp/run/startup_report.hpp"
#include "parallel/local_mesh.hpp"
#include "solvers/fft/extrusion.hpp"
#include "miniapp/time/analytic_fields.hpp"
#include "miniapp/time/channel_start.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/amg/amg.hpp"

namespace miniapp::run {
namespace {

index_t slice_height(const cases::CaseConfig& config, const Executor& exec) {
  return config.numerics.slice_height > 0 ? config.numerics.slice_height : exec.default_slice_height();
}

time::FlowParameters flow_parameters(const cases::CaseConfig& c) {
  time::FlowParameters p;
  p.viscosity = c.physics.nu;
  p.les = c.physics.les;
  p.les_constant = c.physics.les_constant;
  p.time_step.method = c.numerics.time_step == cases::TimeStepMethod::eigenvalue ? time::TimeStepMethod::eigenvalue
                                                                                 : time::TimeStepMethod::cfl;
  p.time_step.cfl = c.numerics.cfl;
  p.time_step.fixed_dt = c.numerics.dt.value_or(0.0);
  p.time_step.max_dt = c.numerics.max_dt.value_or(0.0);
  p.time_step.max_kappa = c.numerics.max_kappa;
  p.bulk_velocity = c.physics.bulk_velocity;
  return p;
}

// The generated box of a channel case (validate_initial checked its walls in y and periods in x, z);
// u_τ is the reference velocity.
time::ChannelBox channel_box(const cases::CaseConfig& c) {
  const cases::MeshConfig& m = c.mesh;
  return {m.origin.y, m.origin.y + m.length.y, m.length.x, m.length.z, c.physics.reference_velocity, c.physics.nu};
}

time::HostVelocity initial_velocity(const Simulation& sim) {
  const auto& init = sim.config.initial;
  const auto& points = sim.geometry.cell_centroid;
  const auto base = [&]() -> time::HostVelocity {
    using T = cases::InitialType;
    switch (init.type) {
      case T::rest: return time::uniform_velocity(points.size(), {0, 0, 0});
      case T::uniform: return time::uniform_velocity(points.size(), init.velocity);
      case T::taylor_green_2d: return time::taylor_green_2d(points, init.amplitude, sim.config.physics.nu, 0.0);
      case T::taylor_green_3d: return time::taylor_green_3d(points, init.amplitude);
      case T::channel: return time::turbulent_channel_start(points, channel_box(sim.config), init.amplitude);
    }
    throw Error("unknown initial condition");
  };
  time::HostVelocity u = base();
  // Relative to the reference velocity, which is 1 in the units of every case (re = U L / ν, U = 1).
  if (init.perturbation > 0) time::add_perturbation(u, points, init.perturbation);
  return u;
}

// The case's initial condition on every cell the rank holds (halo included, so the halo starts
// current), then consistent face velocity and viscosity and the first Δt.
void set_initial_fields(Simulation& sim) {
  sim.fields = std::make_unique<time::FlowFields>(sim.exec, sim.mesh.cell_count(), sim.mesh.face_count());
  const auto u0 = initial_velocity(sim);
  auto& u = sim.fields->u;
  for (int d = 0; d < 3; ++d) u[d].copy_from_host(permute_vector(u0[d], sim.host_operators.cell_order));
  // The owners' values in the halo: a halo cell generated across a periodic end (z-layers) lies one
  // period away from its owner's copy, where a non-periodic initial field (the perturbation) differs.
  const std::array<Vector*, 3> velocity{&u[0], &u[1], &u[2]};
  sim.domain->update_halo(velocity);
  for (int d = 0; d < 3; ++d) copy(sim.exec, u[d], sim.fields->u_old[d]);
  fill(sim.exec, 0.0, sim.fields->pressure);
  sim.scheme->initialise(*sim.fields);
}

// "auto" chose fft from the mesh settings (poisson_choice says so); on several ranks it may still
// have to be pcg.
bool fft_chosen_by_auto(const cases::NumericsConfig& n) {
  return n.poisson == cases::PoissonSolver::fft && !n.poisson_choice.empty();
}

void fall_back_to_pcg(cases::NumericsConfig& n, const std::string& why) {
  n.poisson = cases::PoissonSolver::pcg;
  n.poisson_choice = "numerics.poisson = auto: pcg, not fft: " + why;
}

// The FFT path on several ranks keeps every periodic line whole on one rank (thesis §4.5.3, P × 1):
// the line of each cell of the whole mesh, or nothing when the Poisson solver is PCG. When the whole
// mesh is no extrusion or has fewer lines than ranks, "auto" falls back to PCG and says why, an
// explicit "fft" is refused with the reason (on the rank that holds the whole mesh).
std::optional<std::vector<index_t>> periodic_lines(cases::NumericsConfig& n, const mesh::Mesh& whole, int ranks) {
  if (n.poisson != cases::PoissonSolver::fft) return std::nullopt;
  fft::Extrusion extrusion;
  try {
    extrusion = fft::detect_extrusion(whole, mesh::compute_geometry(whole));
  } catch (const Error& e) {
    if (!fft_chosen_by_auto(n)) throw;
    fall_back_to_pcg(n, e.what());
    return std::nullopt;
  }
  if (extrusion.plane_cells < ranks && fft_chosen_by_auto(n)) {
    fall_back_to_pcg(n, std::to_string(ranks) + " ranks for " + std::to_string(extrusion.plane_cells) +
                            " periodic lines (the FFT path keeps each line on one rank)");
    return std::nullopt;
  }
  return std::move(extrusion.cell_2d);  // an explicit "fft" with too few lines: partition_lines refuses it
}

// Rank 0's choice of numerics.poisson (periodic_lines may have fallen back to PCG) on every rank.
void share_poisson_choice(cases::NumericsConfig& n, const parallel::Communicator& comm) {
  int poisson = static_cast<int>(n.poisson);
  comm.broadcast(std::span<int>(&poisson, 1), 0);
  n.poisson = static_cast<cases::PoissonSolver>(poisson);
  comm.broadcast(n.poisson_choice, 0);
}

// The cells this rank computes on: the whole mesh, a METIS part of it (of its periodic lines for the
// FFT path) that rank 0 reads or generates and sends, or the z-layers it generates; `profile` times
// the parts of the work.
RankMesh make_rank_mesh(cases::CaseConfig& c, const std::string& case_path, const parallel::Communicator* comm,
                        std::ostream& log, StageProfile& profile) {
  const int ranks = comm ? comm->size() : 1;
  if (ranks > 1 && c.mesh.decomposition == cases::Decomposition::z_layers) {
    const std::string why = "mesh.decomposition = \"z-layers\" splits the periodic lines over ranks";
    if (fft_chosen_by_auto(c.numerics)) fall_back_to_pcg(c.numerics, why);
    comm->check_collectively(c.numerics.poisson != cases::PoissonSolver::fft,
                             "numerics.poisson = \"fft\" on several ranks needs every periodic line whole on one rank, "
                             "but " + why + "; use mesh.decomposition = \"metis\" or numerics.poisson = \"pcg\"");
    const auto cells = c.mesh.generator == cases::MeshGenerator::hex ? mesh::BoxCells::hexahedra : mesh::BoxCells::tetrahedra;
    return generate_rank_mesh(cases::box_spec(c.mesh), cells, *comm, log);
  }
  mesh::Mesh whole;  // on rank 0 only
  std::optional<std::vector<index_t>> lines;
  const auto read = [&] {
    whole = cases::make_case_mesh(c.mesh, &profile);
    cases::validate_boundaries(c, whole, case_path);
    if (ranks > 1) lines = periodic_lines(c.numerics, whole, ranks);
  };
  if (ranks == 1) {
    read();
  } else {
    comm->run_collectively([&] {
      if (comm->rank() == 0) read();
    });
    share_poisson_choice(c.numerics, *comm);
  }
  return distribute_mesh(std::move(whole), comm, log, lines ? &*lines : nullptr, &profile);
}

// The PCG path's parts where "auto" builds it beside the FFT path, or nothing where they cannot be made
// (an AIP factor on a tiny periodic mesh, say), which the case's poisson_choice then says: the FFT path
// runs alone, as it would have without the choice.
std::optional<PressureSolverParts> prepare_beside_fft(Simulation& sim, const cases::NumericsConfig& pcg,
                                                      const parallel::Communicator* comm,
                                                      const parallel::LocalNumbering* numbering, index_t slices,
                                                      std::ostream& log) {
  std::optional<PressureSolverParts> parts;
  const auto prepare = [&] { parts = prepare_pressure_solver(sim, pcg, comm, numbering, slices, log); };
  try {
    // AMG's coupled hierarchy fails on every rank together; the other preconditioners are each rank's own.
    if (comm && pcg.preconditioner != cases::Preconditioner::amg) comm->run_collectively(prepare);
    else prepare();
  } catch (const Error& e) {
    sim.config.numerics.poisson_choice += "; pcg not built beside it: " + std::string(e.what());
    return std::nullopt;
  }
  return parts;
}

// The solver's −L that a path's AMG set-up left in executor memory, taken out of it; none where no
// path uploaded it first.
std::optional<DeviceSell> uploaded_pressure_matrix(std::vector<PressureSolverParts>& paths) {
  for (PressureSolverParts& parts : paths)
    if (parts.pressure_matrix) return std::exchange(parts.pressure_matrix, std::nullopt);
  return std::nullopt;
}

// The executor memory of the run with `parts`' pressure solver, and the FFT path's beside it where
// `fft_beside` ("auto" built both).
MemoryEstimate memory_estimate(const Simulation& sim, const PressureSolverParts& parts, index_t slices,
                               bool fft_beside) {
  cases::CaseConfig config = sim.config;
  config.numerics = parts.numerics;
  std::optional<std::size_t> rank_amg_bytes;
  if (parts.amg_ranks)
    rank_amg_bytes =
        Amg::device_bytes(*sim.domain->communicator(), *parts.amg_ranks, slices, amg_options(parts.numerics));
  std::optional<RankShare> rank;
  if (sim.domain->distributed())
    rank = RankShare{sim.domain->inner_count(), sim.domain->owned_count(), sim.domain->halo_send_count(),
                     sim.domain->halo_device_bytes()};
  MemoryEstimate e = estimate_memory(sim.exec, config, sim.mesh, sim.host_operators, slices,
                                     parts.amg_one_rank ? &*parts.amg_one_rank : nullptr,
                                     parts.aip ? &*parts.aip : nullptr, rank_amg_bytes, fft_beside,
                                     rank ? &*rank : nullptr);
  if (parts.pressure_matrix) e.uploaded = sell_device_bytes(sim.host_operators.laplacian, slices, false);
  return e;
}

bool fits_on_every_rank(const MemoryEstimate& estimate, const Executor& exec, const parallel::Communicator* comm) {
  const long long fits = fits_device(estimate, exec) ? 1 : 0;
  return (comm ? comm->allreduce(fits, parallel::ReduceOp::min) : fits) == 1;
}

// The solver of the one path prepared, or, where "auto" prepared both, the two for the time loop's
// solves to choose from (PressurePathChoice).
std::unique_ptr<time::PressureSolver> pressure_solver_of_paths(Simulation& sim,
                                                               std::vector<PressureSolverParts>& paths,
                                                               index_t slices, bool singular,
                                                               const parallel::LocalNumbering* numbering,
                                                               parallel::HaloTransport transport, std::ostream& log) {
  std::vector<PressurePathChoice::Path> built;
  StageProfile setup_parts;
  {
    StageTimer t(log, "pressure solver");
    for (PressureSolverParts& parts : paths) {
      std::unique_ptr<time::PressureSolver> solver =
          make_pressure_solver(sim, parts, slices, singular, numbering, transport, log, &setup_parts);
      built.push_back({parts.numerics, parts.aip_form, std::move(solver)});
    }
  }
  setup_parts.print(log);
  if (built.size() == 1) {
    sim.aip_form = built[0].aip_form;
    return std::move(built[0].solver);
  }
  auto choice = std::make_unique<PressurePathChoice>(sim.exec, sim.domain->communicator(), std::move(built[0]),
                                                     std::move(built[1]));
  sim.pressure_path = choice.get();
  take_pressure_path(sim);
  return choice;
}

}  // namespace

std::string take_pressure_path(Simulation& sim) {
  if (!sim.pressure_path) return "";
  std::string why = sim.pressure_path->unreported_change();
  if (why.empty()) return "";
  const PressurePathChoice::Path& path = sim.pressure_path->path();
  sim.config.numerics = path.numerics;
  sim.config.numerics.poisson_choice = why;
  sim.aip_form = path.aip_form;
  return why;
}

std::string take_pressure_choices(Simulation& sim) {
  std::string lines;
  for (const std::string& chosen : {sim.scheme->pressure_solver().new_choice(), take_pressure_path(sim)})
    if (!chosen.empty()) lines += chosen + "\n";
  return lines;
}

std::string settle_pressure_path(Simulation& sim) {
  std::string chosen = take_pressure_choices(sim);
  while (sim.scheme->pressure_solver().choosing()) {
    sim.scheme->advance(*sim.fields);
    chosen += take_pressure_choices(sim);
  }
  return chosen;
}

// The cut patch of a rank's mesh (where its halo ends) gets a wall: it only closes halo rows, which
// are never used.
fv::FlowBoundaries flow_boundaries(const cases::CaseConfig& config, const mesh::Mesh& mesh) {
  fv::FlowBoundaries b;
  for (const auto& patch : mesh.patches) {
    const auto* bc = config.find_boundary(patch.name);
    if (!bc && patch.name == parallel::cut_patch_name) {
      b.by_patch.push_back({BoundaryKind::wall, {0, 0, 0}});
      continue;
    }
    // validate_boundaries has guaranteed one condition per patch of the whole mesh.
    b.by_patch.push_back({bc->type, bc->velocity});
  }
  return b;
}

std::vector<double> to_mesh_order(const Simulation& sim, const Vector& field) {
  if (sim.owned_piece) return sim.domain->owned(field).to_host();  // the rank's mesh is in operator order
  return unpermute_vector(field.to_host(), sim.host_operators.cell_order);
}

void from_mesh_order(const Simulation& sim, const std::vector<double>& field, Vector& out) {
  if (sim.owned_piece) return sim.domain->owned(out).copy_from_host(field);
  out.copy_from_host(permute_vector(field, sim.host_operators.cell_order));
}

Simulation set_up_simulation(cases::CaseConfig config, const std::string& case_path, std::ostream& log,
                             const parallel::Communicator* comm, parallel::HaloTransport transport) {
  const auto start = std::chrono::steady_clock::now();
  Simulation sim;
  sim.config = std::move(config);
  sim.case_path = case_path;
  auto& c = sim.config;
  // A CUDA context comes up while the mesh is built (rank_executor.hpp).
  BackgroundExecutor backend(cases::name(c.numerics.backend), comm);
  bool singular = false;
  std::optional<parallel::LocalNumbering> numbering;
  // Each rank's host may have another amount left: checked collectively.
  if (comm) comm->run_collectively([&] { check_host_memory(c.mesh, comm->size(), comm->rank()); });
  else check_host_memory(c.mesh, 1, 0);
  StageProfile mesh_parts;
  {
    StageTimer t(log, "mesh");
    RankMesh part = make_rank_mesh(c, case_path, comm, log, mesh_parts);
    // Without an outlet the pressure is defined up to a constant: the singular system. (A rank's mesh
    // keeps every patch of the whole mesh, empty or not.)
    singular = !flow_boundaries(c, part.mesh).has_pressure_outlet();
    sim.mesh = std::move(part.mesh);
    sim.owned_piece = std::move(part.owned_piece);
    sim.global_cells = part.global_cells;
    sim.global_cell_index = std::move(part.owned_global);
    numbering = std::move(part.numbering);
    StageProfile::Part g(&mesh_parts, "geometry");
    sim.geometry = mesh::compute_geometry(sim.mesh);
  }
  mesh_parts.print(log);
  {
    StageTimer t(log, "backend");
    sim.exec = backend.take();
    if (c.numerics.poisson == cases::PoissonSolver::fft) time::require_fft_backend(sim.exec);
  }
  // On several ranks: the reader's peak, while it held the whole mesh, apart from the others'.
  print_host_memory_peak(log, comm, numbering ? numbering->owned_count() : sim.cells());
  // Once the mesh's size is known and numerics.poisson final (it may have fallen back to pcg). Where
  // "auto" took the FFT path, the PCG is prepared beside it, with its own preconditioner, and timed.
  std::optional<cases::NumericsConfig> pcg_path;
  if (fft_chosen_by_auto(c.numerics)) {
    pcg_path = c.numerics;
    pcg_path->poisson = cases::PoissonSolver::pcg;
    cases::resolve_preconditioner(*pcg_path, sim.global_cells, cases::one_cell_thick(c.mesh));
  }
  cases::resolve_preconditioner(c.numerics, sim.global_cells, cases::one_cell_thick(c.mesh));
  const fv::FlowBoundaries boundaries = flow_boundaries(c, sim.mesh);
  const bool les = c.physics.les != LesModel::none;
  StageProfile operator_parts;
  {
    StageTimer t(log, "operators (host)");
    // A rank's mesh is already in its owned-then-halo order (grouped and RCM-ordered inside).
    std::optional<Permutation> order;
    if (numbering) order = Permutation::identity(sim.mesh.cell_count());
    sim.host_operators = fv::assemble_flow_operators(sim.mesh, sim.geometry, boundaries, order, &operator_parts);
  }
  operator_parts.print(log);
  const index_t slices = slice_height(c, sim.exec);
  const parallel::LocalNumbering* rank_cells = numbering ? &*numbering : nullptr;
  std::vector<PressureSolverParts> paths;
  paths.push_back(prepare_pressure_solver(sim, c.numerics, comm, rank_cells, slices, log));
  if (pcg_path)
    if (auto parts = prepare_beside_fft(sim, *pcg_path, comm, rank_cells, slices, log)) paths.push_back(std::move(*parts));
  // Before the estimate, which counts its halo exchange's arrays (a few kB on the device).
  if (numbering) {
    StageTimer t(log, "halo exchange");
    sim.domain = std::make_unique<parallel::Subdomain>(*comm, sim.exec, *numbering, transport);
  } else {
    sim.domain = std::make_unique<parallel::Subdomain>(sim.cells());
  }
  // Both paths where both are prepared; a PCG that does not fit beside the FFT path is not timed.
  sim.memory_estimate = memory_estimate(sim, paths.back(), slices, paths.size() == 2);
  if (paths.size() == 2 && !fits_on_every_rank(sim.memory_estimate, sim.exec, comm)) {
    paths.pop_back();
    c.numerics.poisson_choice += " (pcg not timed: it does not fit on the device beside it)";
    sim.memory_estimate = memory_estimate(sim, paths.back(), slices, false);
  }
  // Fails here, before the first upload, when the mesh does not fit on the device.
  check_memory(sim.memory_estimate, sim.cells(), sim.exec, log);
  // Before the operators' upload, which then reuses the memory of the hierarchy or factor.
  const auto pcg = [](const PressureSolverParts& p) { return p.numerics.poisson != cases::PoissonSolver::fft; };
  if (std::any_of(paths.begin(), paths.end(), pcg)) {
    StageTimer t(log, "preconditioner (upload)");
    for (PressureSolverParts& parts : paths) lay_out_preconditioner(sim, parts, rank_cells, slices, transport, log);
  }
  StageProfile upload_parts;
  {
    StageTimer t(log, "operators (upload)");
    sim.operators = std::make_unique<time::DeviceOperators>(sim.exec, sim.mesh, sim.geometry, sim.host_operators,
                                                            slices, c.physics.nu, les, c.physics.body_force,
                                                            &upload_parts, uploaded_pressure_matrix(paths),
                                                            c.probes.empty() ? nullptr : &sim.probe_cell_gradient);
  }
  upload_parts.print(log);
  std::unique_ptr<time::PressureSolver> pressure_solver =
      pressure_solver_of_paths(sim, paths, slices, singular, rank_cells, transport, log);
  // Uploaded: released before the integrator's vectors are allocated, which then take this memory,
  // already faulted in.
  paths.clear();
  // After the mesh is made: on several ranks it may have changed what "auto" chose.
  if (!c.numerics.poisson_choice.empty()) log << "  " << c.numerics.poisson_choice << "\n";
  if (!c.numerics.preconditioner_choice.empty()) log << "  " << c.numerics.preconditioner_choice << "\n";
  {
    StageTimer t(log, "time integrator");
    sim.scheme = std::make_unique<time::FractionalStep>(sim.exec, *sim.operators, *sim.domain, flow_parameters(c),
                                                        std::move(pressure_solver));
    set_initial_fields(sim);
  }
  report_startup(log, start, sim.cells(), comm);
  return sim;
}

}  // namespace miniapp::run
