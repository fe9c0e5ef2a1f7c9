#include "miniapp/run/simulation.hpp"

#include <iomanip>
#include <optional>
#include <ostream>

#include "miniapp/case/case_mesh.hpp"
#include "miniapp/case/case_validation.hpp"
#include "miniapp/run/case_amg_options.hpp"
#include "miniapp/run/host_memory_report.hpp"
#include "miniapp/case/preconditioner_choice.hpp"
#include "miniapp/run/memory_estimate.hpp"
#include "miniapp/run/rank_executor.hpp"
#include "miniapp/run/rank_mesh.hpp"
#include "miniapp/run/startup_report.hpp"
#include "miniapp/time/distributed_pressure_solver.hpp"
#include "parallel/local_mesh.hpp"
#include "parallel/overlapped_operator.hpp"
#include "solvers/fft/extrusion.hpp"
#include "miniapp/time/analytic_fields.hpp"
#include "miniapp/time/channel_start.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/aip.hpp"
#include "solvers/aip_factor.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/jacobi.hpp"

namespace miniapp::run {
namespace {

index_t slice_height(const cases::CaseConfig& config, const Executor& exec) {
  return config.numerics.slice_height > 0 ? config.numerics.slice_height : exec.default_slice_height();
}

// "  AMG: 4 levels, rows 262144 32768 ...; operator complexity 1.6" (rows over every rank; on several
// ranks also how many levels are split over them), then, on one rank, the set-up stages' times.
void print_amg(const Amg& amg, std::ostream& log, int coupled_ranks) {
  log << "  AMG: " << amg.level_sizes().size() << " levels, rows";
  for (const auto& level : amg.level_sizes()) log << " " << level.rows;
  log << "; operator complexity " << std::setprecision(3) << amg.operator_complexity() << std::defaultfloat
      << (amg.float_storage() ? "; float matrices" : "");
  if (coupled_ranks > 1)
    log << "; coupled across " << coupled_ranks << " ranks, " << amg.split_levels() << " split, the others gathered";
  log << "\n";
  if (coupled_ranks <= 1) amg::print_setup_profile(amg.setup_profile(), log);
}

int aip_level(cases::Preconditioner kind) {
  using P = cases::Preconditioner;
  return kind == P::aip1 ? 1 : kind == P::aip2 ? 2 : kind == P::aip3 ? 3 : 0;
}

AipForm aip_form(cases::AipFormChoice choice) {
  using F = cases::AipFormChoice;
  return choice == F::two_pass ? AipForm::two_pass : choice == F::product ? AipForm::product : AipForm::fewer_bytes;
}

// With AMG on the PCG path, its hierarchy, built on the host before the memory check so that the check
// counts it: of −L on one rank, coupled across the ranks on several (docs/amg.md).
struct AmgHierarchy {
  std::optional<amg::HostHierarchy> one_rank;
  std::optional<amg::RankHierarchy> ranks;
};

// The matrix the PCG path's preconditioner is built from: −L, or its block of owned rows and columns
// on several ranks (block Jacobi across ranks).
CsrMatrix preconditioned_matrix(const Simulation& sim, const parallel::LocalNumbering* numbering) {
  CsrMatrix minus_laplacian = negated(sim.host_operators.laplacian);
  return numbering ? block_of_owned_rows(minus_laplacian, numbering->owned_count()) : minus_laplacian;
}

// The case's preconditioner; an AIP's form is kept in sim.aip_form and printed. With AMG, from the
// hierarchy built beforehand (amg_hierarchy), on several ranks over sim.domain's halo updates; with
// AIP, from G's host matrices (aip_matrices); only Jacobi makes the preconditioned matrix (a copy of
// −L, `numbering`: the rank's cells on several ranks).
std::unique_ptr<Preconditioner> make_preconditioner(Simulation& sim, const parallel::LocalNumbering* numbering,
                                                    index_t slices, const AmgHierarchy& hierarchy,
                                                    const AipHostMatrices* aip_matrices,
                                                    parallel::HaloTransport transport, std::ostream& log) {
  using P = cases::Preconditioner;
  const P kind = sim.config.numerics.preconditioner;
  if (kind == P::jacobi) return std::make_unique<Jacobi>(sim.exec, preconditioned_matrix(sim, numbering));
  if (kind == P::amg) {
    const amg::AmgOptions options = amg_options(sim.config.numerics);
    // On one rank the finest level is the pressure solver's own −L; on several, the owned block.
    const DeviceSell* fine = sim.domain->distributed() ? nullptr : &sim.operators->pressure_matrix;
    std::unique_ptr<Amg> amg;
    if (hierarchy.ranks) amg = std::make_unique<Amg>(sim.exec, *sim.domain, *hierarchy.ranks, options, slices, transport);
    else if (hierarchy.one_rank) amg = std::make_unique<Amg>(sim.exec, *hierarchy.one_rank, options, slices, fine);
    else amg = std::make_unique<Amg>(sim.exec, preconditioned_matrix(sim, numbering), options, slices, fine);
    print_amg(*amg, log, hierarchy.ranks ? sim.domain->ranks() : 1);
    return amg;
  }
  auto aip = std::make_unique<Aip>(sim.exec, *aip_matrices, aip_level(kind), slices);
  sim.aip_form = aip->factor().form();
  log << "  AIP-" << aip->level()
      << (sim.aip_form == AipForm::product ? ": one pass with the product Gᵀ G" : ": two passes, G then Gᵀ")
      << (sim.config.numerics.aip_form == cases::AipFormChoice::automatic
              ? " (the form that moves fewer bytes on this matrix)\n"
              : " (numerics.aip_form)\n");
  return aip;
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

PcgOptions pressure_solve_options(const cases::CaseConfig& c) {
  PcgOptions o;
  o.tolerance = c.numerics.poisson_tolerance;
  o.max_iterations = c.numerics.poisson_max_iterations;
  return o;
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

// The AMG hierarchy of the PCG path (nothing without AMG): on several ranks (`numbering`: the rank's
// cells) from the owned rows of −L, coupled across the ranks of `comm`.
AmgHierarchy amg_hierarchy(const Simulation& sim, const parallel::Communicator* comm,
                           const parallel::LocalNumbering* numbering, std::ostream& log) {
  const auto& n = sim.config.numerics;
  AmgHierarchy h;
  if (n.preconditioner != cases::Preconditioner::amg || n.poisson == cases::PoissonSolver::fft) return h;
  StageTimer t(log, "AMG hierarchy");
  if (numbering)
    h.ranks = amg::build_rank_hierarchy(
        *comm, *numbering,
        parallel::row_block(negated(sim.host_operators.laplacian), 0, numbering->owned_count()), amg_options(n));
  else h.one_rank = amg::build_hierarchy(negated(sim.host_operators.laplacian), amg_options(n), &sim.exec);
  return h;
}

// With AIP on the PCG path, G's host matrices, built before the memory check so that the check sizes
// them exactly and the solver uploads them without building them again; nothing otherwise.
std::optional<AipHostMatrices> aip_matrices(const Simulation& sim, const parallel::LocalNumbering* numbering,
                                            index_t slices, std::ostream& log) {
  const auto& n = sim.config.numerics;
  const int level = aip_level(n.preconditioner);
  if (level == 0 || n.poisson == cases::PoissonSolver::fft) return std::nullopt;
  StageTimer t(log, "AIP factor (host)");
  return aip_host_matrices(aip_factor(preconditioned_matrix(sim, numbering), level), slices, aip_form(n.aip_form));
}

// The FFT path's low frequencies take AMG with numerics.preconditioner = "amg", else AIP-1 (the
// others' choices are the PCG path's).
fft::FrequencyPreconditioning frequency_preconditioning(const cases::NumericsConfig& n) {
  fft::FrequencyPreconditioning p;
  if (n.preconditioner == cases::Preconditioner::amg) p.leading = fft::LeadingPreconditioner::amg;
  p.leading_blocks = n.fft_low_frequency_blocks;
  return p;
}

// numerics.poisson: PCG with the case's preconditioner, or the FFT path along a periodic z. On several
// ranks: the distributed PCG, its preconditioner built on the owned block (block Jacobi across ranks)
// but AMG's, coupled across them, or the FFT path on the rank's whole periodic lines (`numbering`: the
// rank's cells).
std::unique_ptr<time::PressureSolver> make_pressure_solver(Simulation& sim, index_t slices, bool singular,
                                                           const parallel::LocalNumbering* numbering,
                                                           parallel::HaloTransport transport,
                                                           const AmgHierarchy& amg_hierarchy,
                                                           const AipHostMatrices* aip_host, std::ostream& log) {
  auto& c = sim.config;
  PcgOptions options = pressure_solve_options(c);
  options.singular = singular;
  if (c.numerics.poisson == cases::PoissonSolver::fft) {
    std::optional<time::FftPressureSolver::Ranks> ranks;
    if (sim.domain->distributed()) ranks.emplace(*sim.domain->communicator(), *numbering, transport);
    return std::make_unique<time::FftPressureSolver>(sim.exec, sim.mesh, sim.geometry, sim.host_operators.laplacian,
                                                     sim.host_operators.cell_order, options,
                                                     frequency_preconditioning(c.numerics), &log,
                                                     ranks ? &*ranks : nullptr);
  }
  auto preconditioner = make_preconditioner(sim, numbering, slices, amg_hierarchy, aip_host, transport, log);
  if (sim.domain->distributed())
    return std::make_unique<time::DistributedPcgPressureSolver>(sim.exec, *sim.domain,
                                                                negated(sim.host_operators.laplacian), slices,
                                                                std::move(preconditioner), options);
  return std::make_unique<time::PcgPressureSolver>(sim.exec, sim.operators->pressure_matrix, std::move(preconditioner),
                                                   options);
}

}  // namespace

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
  // The backend first: a missing device is reported before any work is done.
  {
    StageTimer t(log, "backend");
    sim.exec = rank_executor(cases::name(c.numerics.backend), comm);
    if (c.numerics.poisson == cases::PoissonSolver::fft) time::require_fft_backend(sim.exec);
  }
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
  // On several ranks: the reader's peak, while it held the whole mesh, apart from the others'.
  print_host_memory_peak(log, comm, numbering ? numbering->owned_count() : sim.cells());
  // Once the mesh's size is known and numerics.poisson final (it may have fallen back to pcg).
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
  // Fails here, before the first upload, when the mesh does not fit on the device.
  AmgHierarchy amg = amg_hierarchy(sim, comm, numbering ? &*numbering : nullptr, log);
  std::optional<AipHostMatrices> aip = aip_matrices(sim, numbering ? &*numbering : nullptr, slices, log);
  std::optional<std::size_t> rank_amg_bytes;
  if (amg.ranks) rank_amg_bytes = Amg::device_bytes(*amg.ranks, slices, amg_options(c.numerics));
  sim.memory_estimate = estimate_memory(c, sim.mesh, sim.host_operators, slices,
                                        amg.one_rank ? &*amg.one_rank : nullptr, aip ? &*aip : nullptr, rank_amg_bytes);
  check_memory(sim.memory_estimate, sim.cells(), sim.exec, log);
  StageProfile upload_parts;
  {
    StageTimer t(log, "operators (upload)");
    sim.operators = std::make_unique<time::DeviceOperators>(sim.exec, sim.mesh, sim.geometry, sim.host_operators,
                                                            slices, c.physics.nu, les, c.physics.body_force,
                                                            &upload_parts);
    StageProfile::Part part(numbering ? &upload_parts : nullptr, "halo exchange");
    sim.domain = numbering ? std::make_unique<parallel::Subdomain>(*comm, sim.exec, *numbering, transport)
                           : std::make_unique<parallel::Subdomain>(sim.cells());
  }
  upload_parts.print(log);
  std::unique_ptr<time::PressureSolver> pressure_solver;
  {
    StageTimer t(log, "pressure solver");
    pressure_solver = make_pressure_solver(sim, slices, singular, numbering ? &*numbering : nullptr, transport,
                                           amg, aip ? &*aip : nullptr, log);
  }
  // Uploaded: released before the integrator's vectors are allocated, which then take this memory,
  // already faulted in.
  amg = AmgHierarchy{};
  aip.reset();
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
