#include "miniapp/run/pressure_solver_setup.hpp"

#include <iomanip>
#include <ostream>

#include "miniapp/run/case_amg_options.hpp"
#include "miniapp/run/startup_report.hpp"
#include "miniapp/time/distributed_pressure_solver.hpp"
#include "parallel/overlapped_operator.hpp"
#include "solvers/aip.hpp"
#include "solvers/aip_factor.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/amg/device_galerkin.hpp"
#include "solvers/amg/level_matrix.hpp"
#include "solvers/jacobi.hpp"

namespace miniapp::run {
namespace {

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

// The matrix the PCG path's preconditioner is built from: −L, or its block of owned rows and columns
// on several ranks (block Jacobi across ranks).
CsrMatrix preconditioned_matrix(const Simulation& sim, const parallel::LocalNumbering* numbering) {
  CsrMatrix minus_laplacian = negated(sim.host_operators.laplacian);
  return numbering ? block_of_owned_rows(minus_laplacian, numbering->owned_count()) : minus_laplacian;
}

// The PCG path's preconditioner. With AMG, from the hierarchy built beforehand (on one rank its finest
// level parts.pressure_matrix, on several over sim.domain's halo updates); with AIP, from G's host
// matrices, its form kept in parts.aip_form and printed; only Jacobi makes the preconditioned matrix.
std::unique_ptr<Preconditioner> make_preconditioner(Simulation& sim, PressureSolverParts& parts,
                                                    const parallel::LocalNumbering* numbering, index_t slices,
                                                    parallel::HaloTransport transport, std::ostream& log) {
  using P = cases::Preconditioner;
  const cases::NumericsConfig& n = parts.numerics;
  if (n.preconditioner == P::jacobi) return std::make_unique<Jacobi>(sim.exec, preconditioned_matrix(sim, numbering));
  if (n.preconditioner == P::amg) {
    const amg::AmgOptions options = amg_options(n);
    std::unique_ptr<Amg> amg =
        parts.amg_ranks
            ? std::make_unique<Amg>(sim.exec, *sim.domain, *parts.amg_ranks, options, slices, transport)
            : std::make_unique<Amg>(sim.exec, parts.amg_one_rank.value(), options, slices, &parts.pressure_matrix.value());
    print_amg(*amg, log, parts.amg_ranks ? sim.domain->ranks() : 1);
    return amg;
  }
  auto aip = std::make_unique<Aip>(sim.exec, *parts.aip, aip_level(n.preconditioner), slices);
  parts.aip_form = aip->factor().form();
  log << "  AIP-" << aip->level()
      << (parts.aip_form == AipForm::product ? ": one pass with the product Gᵀ G" : ": two passes, G then Gᵀ")
      << (n.aip_form == cases::AipFormChoice::automatic ? " (the form that moves fewer bytes on this matrix)\n"
                                                        : " (numerics.aip_form)\n");
  return aip;
}

// Whether −L goes to the device before AMG's set-up, for the set-up's device steps to read and the
// solver to keep (PressureSolverParts::pressure_matrix): on one CUDA rank, where the set-up's finest
// level runs on the device (amg::device_setup_rows) and the device has room for −L in CSR and sELL
// beside the copy of A that the set-up filters. The memory check counts the sELL as uploaded.
bool uploads_pressure_matrix_first(const Simulation& sim, index_t slices) {
  const CsrMatrix& l = sim.host_operators.laplacian;
  return sim.exec.backend() == Backend::cuda && l.rows >= amg::device_setup_rows &&
         amg::device_has_room(sim.exec, 2 * amg::csr_device_bytes(l.rows, l.nnz()) + sell_device_bytes(l, slices, false) +
                                            (static_cast<std::size_t>(l.rows) + 1) * sizeof(double));
}

// The FFT path's low frequencies take AMG with numerics.preconditioner = "amg", else AIP-1 (the
// others' choices are the PCG path's).
fft::FrequencyPreconditioning frequency_preconditioning(const cases::NumericsConfig& n) {
  fft::FrequencyPreconditioning p;
  if (n.preconditioner == cases::Preconditioner::amg) p.leading = fft::LeadingPreconditioner::amg;
  p.leading_blocks = n.fft_low_frequency_blocks;
  return p;
}

}  // namespace

PressureSolverParts prepare_pressure_solver(const Simulation& sim, const cases::NumericsConfig& numerics,
                                            const parallel::Communicator* comm,
                                            const parallel::LocalNumbering* numbering, index_t slices,
                                            std::ostream& log) {
  PressureSolverParts parts{numerics, {}, {}, {}, {}, {}, {}};
  if (numerics.poisson == cases::PoissonSolver::fft) return parts;
  if (numerics.preconditioner == cases::Preconditioner::amg && numbering) {
    StageTimer t(log, "AMG hierarchy");
    parts.amg_ranks = amg::build_rank_hierarchy(
        *comm, *numbering, parallel::row_block(negated(sim.host_operators.laplacian), 0, numbering->owned_count()),
        amg_options(numerics));
  } else if (numerics.preconditioner == cases::Preconditioner::amg) {
    // −L made once and handed over: the finest level keeps the matrix it is given, so a named copy
    // would be copied once more.
    amg::SetupMatrix minus_laplacian;
    if (uploads_pressure_matrix_first(sim, slices)) {
      StageTimer t(log, "pressure matrix (upload)");
      minus_laplacian.host = negated(sim.host_operators.laplacian);
      minus_laplacian.device.emplace(sim.exec, minus_laplacian.host);
      parts.pressure_matrix.emplace(*minus_laplacian.device, slices);
    }
    StageTimer t(log, "AMG hierarchy");
    if (!minus_laplacian.device) minus_laplacian.host = negated(sim.host_operators.laplacian);
    parts.amg_one_rank = amg::build_hierarchy(std::move(minus_laplacian), amg_options(numerics), &sim.exec);
  }
  if (const int level = aip_level(numerics.preconditioner); level > 0) {
    StageTimer t(log, "AIP factor (host)");
    parts.aip = aip_host_matrices(aip_factor(preconditioned_matrix(sim, numbering), level), slices,
                                  aip_form(numerics.aip_form));
  }
  return parts;
}

void lay_out_preconditioner(Simulation& sim, PressureSolverParts& parts, const parallel::LocalNumbering* numbering,
                            index_t slices, parallel::HaloTransport transport, std::ostream& log) {
  if (parts.numerics.poisson == cases::PoissonSolver::fft) return;
  if (parts.amg_one_rank && !parts.pressure_matrix)
    parts.pressure_matrix.emplace(sim.exec, negated(sim.host_operators.laplacian), slices);
  parts.preconditioner = make_preconditioner(sim, parts, numbering, slices, transport, log);
  parts.amg_one_rank.reset();
  parts.amg_ranks.reset();
  parts.aip.reset();
}

std::unique_ptr<time::PressureSolver> make_pressure_solver(Simulation& sim, PressureSolverParts& parts, index_t slices,
                                                           bool singular, const parallel::LocalNumbering* numbering,
                                                           parallel::HaloTransport transport, std::ostream& log,
                                                           StageProfile* profile) {
  const cases::NumericsConfig& n = parts.numerics;
  PcgOptions options;
  options.tolerance = n.poisson_tolerance;
  options.max_iterations = n.poisson_max_iterations;
  options.singular = singular;
  if (n.poisson == cases::PoissonSolver::fft) {
    std::optional<time::FftPressureSolver::Ranks> ranks;
    if (sim.domain->distributed()) ranks.emplace(*sim.domain, *numbering, transport);
    return std::make_unique<time::FftPressureSolver>(sim.exec, sim.mesh, sim.geometry, sim.host_operators.laplacian,
                                                     sim.host_operators.cell_order, options,
                                                     frequency_preconditioning(n), &log, ranks ? &*ranks : nullptr,
                                                     profile);
  }
  if (sim.domain->distributed())
    return std::make_unique<time::DistributedPcgPressureSolver>(
        sim.exec, *sim.domain, negated(sim.host_operators.laplacian), slices, std::move(parts.preconditioner), options);
  return std::make_unique<time::PcgPressureSolver>(sim.exec, sim.operators->pressure_matrix,
                                                   std::move(parts.preconditioner), options);
}

}  // namespace miniapp::run
