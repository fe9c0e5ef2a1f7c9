#include "miniapp/run/memory_estimate.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <utility>

#include "core/host_memory.hpp"
#include "miniapp/run/case_amg_options.hpp"
#include "operators/backend/cuda/device.hpp"
#include "operators/kernels/aip_kernels.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "parallel/overlapped_operator.hpp"
#include "solvers/aip_factor.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/amg/level_matrix.hpp"  // csr_device_bytes
#include "solvers/fft/fft_poisson.hpp"

namespace miniapp::run {
namespace {

constexpr std::size_t index_bytes = sizeof(index_t), value_bytes = sizeof(double);

std::size_t vector_bytes(index_t n, int count = 1) { return count * value_bytes * static_cast<std::size_t>(n); }

// A DeviceSell (double values).
std::size_t sell_bytes(const CsrMatrix& a, index_t slice_height) { return sell_device_bytes(a, slice_height, false); }

// DeviceCsr of `rows` rows and `nnz` entries.
std::size_t csr_bytes(std::size_t rows, std::size_t nnz) { return index_bytes * (rows + 1) + (index_bytes + value_bytes) * nnz; }

// Entries of a coefficient map M diag(φ) B (fv::convection_map, fv::diffusion_map): one per entry
// (i, f) of M and column of B's row f, none merging (distinct f or distinct positions).
std::size_t coefficient_map_entries(const CsrMatrix& m, const std::vector<index_t>& b_row_length) {
  std::size_t entries = 0;
#pragma omp parallel for schedule(static) reduction(+ : entries)
  for (std::size_t p = 0; p < m.col.size(); ++p) entries += b_row_length[m.col[p]];
  return entries;
}

// Row lengths of the face matrices B of E_C (convective interpolation: owner and neighbour on
// interior faces, the owner on outlets) and E_D (velocity face gradient: owner and neighbour on
// interior faces, the owner on walls and inlets; nothing on slip faces). Interior faces as Π's rows
// (`interpolation_lengths`: a face whose neighbour is its owner, a periodic direction one cell thick,
// has one merged entry); every boundary face is then set by its patch.
std::array<std::vector<index_t>, 2> map_face_lengths(const mesh::Mesh& mesh, const fv::FlowBoundaries& boundaries,
                                                     const std::vector<index_t>& interpolation_lengths) {
  std::array<std::vector<index_t>, 2> lengths{interpolation_lengths, interpolation_lengths};
  boundaries.require_matches(mesh);
  for (std::size_t p = 0; p < mesh.patches.size(); ++p) {
    const mesh::Patch& patch = mesh.patches[p];
    const BoundaryKind kind = boundaries.by_patch[p].kind;
    std::fill_n(lengths[0].begin() + patch.first_face, patch.face_count, fv::fixes_face_velocity(kind) ? 0 : 1);
    std::fill_n(lengths[1].begin() + patch.first_face, patch.face_count, fv::fixes_velocity(kind) ? 1 : 0);
  }
  return lengths;
}

// Faces of the patches p of `mesh` for which counted(p) holds.
template <class Counted>
index_t patch_face_count(const mesh::Mesh& mesh, Counted counted) {
  index_t faces = 0;
  for (std::size_t p = 0; p < mesh.patches.size(); ++p)
    if (counted(p)) faces += mesh.patches[p].face_count;
  return faces;
}

// Faces of the patches whose condition is a wall or a moving wall (not a rank's cut patch, which has none).
index_t wall_face_count(const cases::CaseConfig& config, const mesh::Mesh& mesh) {
  return patch_face_count(mesh, [&](std::size_t p) {
    const cases::BoundaryCondition* bc = config.find_boundary(mesh.patches[p].name);
    return bc && is_wall(bc->type);
  });
}

// Faces of the patches whose condition is an outlet (none on a rank whose piece only keeps the patch).
index_t outlet_face_count(const mesh::Mesh& mesh, const fv::FlowBoundaries& boundaries) {
  boundaries.require_matches(mesh);
  return patch_face_count(mesh, [&](std::size_t p) { return boundaries.by_patch[p].kind == BoundaryKind::outlet; });
}

// DeviceOperators' viscous_source exists with LES when the wall/inlet diffusion source is non-zero.
bool viscous_source_needed(const fv::FlowOperators& ops, index_t faces, double nu) {
  const std::vector<double> nu_faces(static_cast<std::size_t>(faces), nu);
  for (const CsrMatrix& s : ops.boundary_diffusion_source) {
    const std::vector<double> v = reference_spmv(s, nu_faces);
    if (std::any_of(v.begin(), v.end(), [](double x) { return x != 0.0; })) return true;
  }
  return false;
}

// `momentum_lengths`: fv::momentum_row_lengths of ops.laplacian.
std::size_t operator_bytes(const cases::CaseConfig& config, const mesh::Mesh& mesh, const fv::FlowOperators& ops,
                           const std::vector<index_t>& momentum_lengths, index_t h) {
  const index_t cells = mesh.cell_count(), faces = mesh.face_count();
  const bool les = config.physics.les != LesModel::none;
  // |M| is values on M's structure, and the viscous rate where its pattern is M's; Π is made at the
  // upload (its row lengths here); G_d, the pattern of (M Γ_d)ᵀ, values on M Γ_d's structure where
  // that pattern is symmetric (time::DeviceOperators).
  const std::vector<index_t> interpolation_lengths = fv::face_interpolation_row_lengths(mesh);
  const auto values_only = [&](const CsrMatrix& a) { return value_bytes * sell_stored_entries(a, h); };
  std::size_t bytes = sell_bytes(ops.divergence, h) + values_only(ops.divergence) + sell_bytes(ops.face_gradient, h) +
                      sell_bytes(ops.laplacian, h) + sell_device_bytes(interpolation_lengths, h, false) +
                      (same_pattern(ops.viscous_rate, ops.divergence) ? values_only(ops.viscous_rate)
                                                                      : sell_bytes(ops.viscous_rate, h)) +
                      sell_bytes(ops.cell_to_face, h);
  for (const CsrMatrix& m_gamma : ops.cell_divergence)
    bytes += sell_bytes(m_gamma, h) + (has_symmetric_pattern(m_gamma) ? values_only(m_gamma) : sell_bytes(m_gamma, h));
  // R = C + D on the momentum pattern, its values array also held as values(D), and the maps E_C, E_D.
  const std::size_t momentum_entries = sell_stored_entries(momentum_lengths, h);
  bytes += sell_device_bytes(momentum_lengths, h, false) + value_bytes * momentum_entries;
  const auto face_lengths = map_face_lengths(mesh, ops.boundaries, interpolation_lengths);
  bytes += csr_bytes(momentum_entries, coefficient_map_entries(ops.divergence, face_lengths[0]));
  if (les) bytes += csr_bytes(momentum_entries, coefficient_map_entries(ops.divergence, face_lengths[1]));
  if (les && viscous_source_needed(ops, faces, config.physics.nu))
    for (const CsrMatrix& s : ops.boundary_diffusion_source) bytes += sell_bytes(s, h);
  // Outlets: their mask and u_s with their inflow clipped (E_C's input), where this mesh has outlet
  // faces (a rank's mesh may keep an outlet patch with none).
  if (outlet_face_count(mesh, ops.boundaries) > 0) bytes += vector_bytes(faces, 2);
  // volume, inverse volume, M u_bc, 3 constant sources, the boundary speed flux; u_bc · n on faces.
  return bytes + vector_bytes(cells, 7) + vector_bytes(faces);
}

// The PCG path's preconditioner (none on the FFT path: its own are fft_path_bytes').
std::size_t preconditioner_bytes(const cases::CaseConfig& config, const fv::FlowOperators& ops, index_t h,
                                 const amg::HostHierarchy* amg, const AipHostMatrices* aip) {
  using P = cases::Preconditioner;
  const P kind = config.numerics.preconditioner;
  const index_t cells = ops.laplacian.rows;
  if (config.numerics.poisson == cases::PoissonSolver::fft) return 0;
  if (kind == P::jacobi) return vector_bytes(cells);
  if (kind == P::amg) {
    const amg::AmgOptions options = amg_options(config.numerics);
    // On one rank the finest level is the pressure solver's −L itself (not stored twice); a rank's
    // owned block (several ranks) has fewer entries and is stored.
    const auto shares_fine = [&](const amg::HostHierarchy& hierarchy) {
      return !hierarchy.levels.empty() && hierarchy.levels.front().nnz() == ops.laplacian.nnz();
    };
    if (amg) return Amg::device_bytes(*amg, h, options, shares_fine(*amg));
    const amg::HostHierarchy built = amg::build_hierarchy(negated(ops.laplacian), options);
    return Amg::device_bytes(built, h, options, shares_fine(built));
  }
  if (aip) return DeviceAipFactor::device_bytes(*aip, h);
  const int level = kind == P::aip1 ? 1 : kind == P::aip2 ? 2 : 3;
  return DeviceAipFactor::device_bytes(aip_pattern(ops.laplacian, level), h);  // −L has L's pattern
}

// The FFT path's arrays on a mesh in uniform periodic layers along z (the case's cells along z, or
// its layers of a 2D file), its 2D operator's entries from L's: each row less its z-neighbours' (one
// entry for both with two layers). A rank's mesh holds whole lines, owned then halo: its owned cells
// and the cells it sends in a halo update are whole lines too.
std::size_t fft_path_bytes(const Executor& exec, const cases::MeshConfig& m, const CsrMatrix& laplacian,
                           const RankShare* rank) {
  const index_t planes = m.generator == cases::MeshGenerator::file ? m.layers : m.cells[2];
  if (planes < 2) return 0;
  const index_t lines = laplacian.rows / planes;
  const index_t z_entries = planes == 2 ? 1 : 2;
  const index_t plane_nnz = (laplacian.nnz() - z_entries * laplacian.rows) / planes;
  const index_t owned_lines = rank ? rank->owned / planes : lines, send_lines = rank ? rank->sends / planes : 0;
  return fft::FftPoisson::device_bytes(exec, lines, owned_lines, planes, plane_nnz, send_lines);
}

std::string gigabytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

}  // namespace

MemoryEstimate estimate_memory(const Executor& exec, const cases::CaseConfig& config, const mesh::Mesh& mesh,
                               const fv::FlowOperators& ops, index_t slice_height, const amg::HostHierarchy* amg,
                               const AipHostMatrices* aip, std::optional<std::size_t> rank_amg_bytes, bool fft_beside,
                               const RankShare* rank) {
  const index_t cells = mesh.cell_count(), faces = mesh.face_count();
  const bool les = config.physics.les != LesModel::none;
  MemoryEstimate e;
  const std::vector<index_t> momentum_lengths = fv::momentum_row_lengths(ops.laplacian);
  e.operators = operator_bytes(config, mesh, ops, momentum_lengths, slice_height);
  e.preconditioner = rank_amg_bytes ? *rank_amg_bytes : preconditioner_bytes(config, ops, slice_height, amg, aip);
  // AMG on one rank is laid out on the solver's −L (run::lay_out_preconditioner).
  if (config.numerics.poisson == cases::PoissonSolver::pcg &&
      config.numerics.preconditioner == cases::Preconditioner::amg && !rank_amg_bytes)
    e.before_preconditioner = sell_bytes(ops.laplacian, slice_height);
  // PCG: r twice (Pcg::residual), z, p, q, rhs. Fractional step: uᵖ and work (3 each), rhs, cell work; face work;
  // with LES the 9 velocity gradients, the filter width and the base viscosity on the faces.
  const bool fft = config.numerics.poisson == cases::PoissonSolver::fft;
  e.solver = vector_bytes(cells, fft ? 0 : 6) + vector_bytes(cells, 8 + (les ? 10 : 0)) + vector_bytes(faces, les ? 2 : 1);
  if (fft || fft_beside) {
    e.fft_path = fft_path_bytes(exec, config.mesh, ops.laplacian, rank);
    // The larger of the FFT path's timed choice's vectors (steps 2-3: the step's start and a trial
    // solution) and "auto"'s PCG solution beside the FFT path's (steps 4-5), never held together.
    if (config.numerics.fft_low_frequency_blocks < 0) e.first_steps = vector_bytes(cells, 2);
    else if (fft_beside) e.first_steps = vector_bytes(cells);
  }
  if (rank) {
    e.solver += rank->halo_bytes;
    // The pressure matrix's owned rows again, as parallel::OverlappedOperator splits them.
    if (!fft)
      e.solver += parallel::split_rows_device_bytes(ops.laplacian, rank->inner, rank->owned, slice_height, false);
  }
  // A held bulk velocity (FlowRateHold): ones on the cells, e·n on the faces.
  if (config.physics.bulk_velocity) e.solver += vector_bytes(cells) + vector_bytes(faces);
  // u, u_old (3 each), p, ν_t; u_s, ν_s.
  e.fields = vector_bytes(cells, 8) + vector_bytes(faces, 2);
  // FlowDiagnostics: 3 work vectors (ω, or a column of ∇u for the output) and one more; with LES D(ν)'s
  // values on the momentum pattern.
  // TimeAverages: 11 sums. WallMonitor, per wall face: area, distance, normal, the wall's velocity, the
  // sampled velocity, τ and y⁺.
  e.observers = vector_bytes(cells, 4) + (config.statistics.enabled ? vector_bytes(cells, 11) : 0) +
                vector_bytes(wall_face_count(config, mesh), 13);
  if (les) e.observers += value_bytes * sell_stored_entries(momentum_lengths, slice_height);
  if (amg)
    for (const amg::HostLevel& l : amg->levels)
      for (const amg::SetupMatrix* m : {&l.a, &l.prolongation, &l.restriction})
        if (m->device) e.held_by_setup += amg::csr_device_bytes(m->device->rows(), m->device->nnz());
  return e;
}

namespace {

// The estimate's bytes before the set-up's held bytes are freed: the preconditioner, laid out before
// the operators' upload, and what goes to the device before it.
std::size_t while_held(const MemoryEstimate& e) { return e.before_preconditioner + e.preconditioner; }

}  // namespace

long long cells_that_fit(const MemoryEstimate& estimate, index_t cells, std::size_t free_bytes) {
  const double n = std::max<index_t>(cells, 1);
  // What the device had before the set-up held anything, against the bytes per cell at the end and
  // while the set-up's are still held.
  const double device =
      static_cast<double>(free_bytes) + static_cast<double>(estimate.held_by_setup + estimate.uploaded);
  const double at_end = static_cast<double>(estimate.total()) / n;
  const double meanwhile = static_cast<double>(while_held(estimate) + estimate.held_by_setup) / n;
  const double per_cell = std::max(at_end, meanwhile);
  return per_cell > 0 ? static_cast<long long>(device / per_cell) : 0;
}

namespace {

bool fits(const MemoryEstimate& estimate, const cuda::MemoryInfo& info) {
  return estimate.total() <= info.free_bytes + estimate.held_by_setup + estimate.uploaded &&
         while_held(estimate) <= info.free_bytes + estimate.uploaded;
}

}  // namespace

bool fits_device(const MemoryEstimate& estimate, const Executor& exec) {
  return exec.backend() != Backend::cuda || fits(estimate, cuda::memory_info(exec.device()));
}

void check_memory(const MemoryEstimate& estimate, index_t cells, const Executor& exec, std::ostream& log) {
  const std::size_t total = estimate.total();
  log << "  device memory: " << total / static_cast<std::size_t>(std::max<index_t>(cells, 1)) << " bytes per cell (total "
      << gigabytes(total) << ")\n";
  if (exec.backend() != Backend::cuda) return;
  const cuda::MemoryInfo info = cuda::memory_info(exec.device());
  const std::string room = "room for about " + std::to_string(cells_that_fit(estimate, cells, info.free_bytes)) +
                           " cells like these";
  const std::string held =
      (estimate.uploaded > 0 ? " (" + gigabytes(estimate.uploaded) + " of the mesh's already on it)" : std::string()) +
      (estimate.held_by_setup > 0 ? " and " + gigabytes(estimate.held_by_setup) + " that AMG's set-up frees" : "");
  if (!fits(estimate, info))
    throw Error("mesh needs " + gigabytes(total) + " of device memory, " + gigabytes(info.free_bytes) + " free on " +
                exec.description() + held + " (" + gigabytes(info.total_bytes) + " in all, " + room +
                "): use a coarser mesh or a device with more memory");
  log << "  fits on " << exec.description() << ": " << gigabytes(info.free_bytes) << " free" << held << ", " << room
      << "\n";
}

void check_host_memory(const cases::MeshConfig& m, int ranks, int rank) {
  if (m.generator == cases::MeshGenerator::file) return;
  const double per_type = m.generator == cases::MeshGenerator::tet ? 6 : m.generator == cases::MeshGenerator::prism ? 2 : 1;
  const double cells = per_type * m.cells[0] * static_cast<double>(m.cells[1]) * m.cells[2];
  // Rank 0 generates the whole mesh and shares it out, except with z-layers, where each makes its slab.
  const bool whole = rank == 0 && m.decomposition != cases::Decomposition::z_layers;
  const double on_rank = whole ? cells : cells / ranks;
  const double needed = on_rank * host_bytes_per_cell_at_least;
  const auto available = host_memory_available();
  if (!available || needed <= static_cast<double>(*available)) return;
  std::ostringstream why;
  why.precision(3);
  why << "mesh.cells makes " << cells << " cells; setting up " << on_rank << " on a rank takes at least "
      << std::fixed << std::setprecision(1) << needed * 1e-9 << " GB of host memory, and this host has "
      << describe_host_memory_available() << ": use a coarser mesh, or more ranks on more nodes with "
      << "mesh.decomposition = \"z-layers\"";
  throw Error(why.str());
}

}  // namespace miniapp::run
