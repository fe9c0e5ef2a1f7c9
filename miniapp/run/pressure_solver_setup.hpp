#pragma once
#include <iosfwd>
#include <memory>
#include <optional>

#include "miniapp/case/case_config.hpp"
#include "miniapp/run/simulation.hpp"
#include "miniapp/time/pressure_solver.hpp"
#include "operators/kernels/aip_kernels.hpp"
#include "parallel/local_numbering.hpp"
#include "solvers/amg/hierarchy.hpp"
#include "solvers/amg/rank_hierarchy.hpp"
#include "solvers/preconditioner.hpp"

namespace miniapp::run {

// What one pressure path's solver is made from, prepared on the host before the memory check so that
// the check counts it: with AMG on the PCG path its hierarchy (of −L on one rank, coupled across the
// ranks on several), with AIP G's host matrices (uploaded, not built again); nothing else for Jacobi
// and the FFT path. Then, after the check, the preconditioner laid out from them.
struct PressureSolverParts {
  cases::NumericsConfig numerics;  // the path's: poisson and preconditioner resolved
  std::optional<amg::HostHierarchy> amg_one_rank;
  std::optional<amg::RankHierarchy> amg_ranks;
  std::optional<AipHostMatrices> aip;
  // The solver's −L in executor memory, which the operators' upload then takes (time::DeviceOperators)
  // instead of uploading −L again: where AMG's set-up ran on a CUDA device, uploaded once and read
  // there by the set-up; otherwise, with AMG on one rank, laid out before AMG, whose finest level it is.
  std::optional<DeviceSell> pressure_matrix;
  // The PCG path's preconditioner in executor memory (lay_out_preconditioner), and the form its AIP
  // took (empty for Jacobi, AMG and the FFT path).
  std::unique_ptr<Preconditioner> preconditioner;
  std::optional<AipForm> aip_form;
};

// The parts of the path `numerics` names, on sim's host operators; on several ranks (`numbering`: the
// rank's cells) collective over `comm`. Prints each stage's time to `log`.
PressureSolverParts prepare_pressure_solver(const Simulation& sim, const cases::NumericsConfig& numerics,
                                            const parallel::Communicator* comm,
                                            const parallel::LocalNumbering* numbering, index_t slices,
                                            std::ostream& log);

// parts' PCG preconditioner laid out on sim's executor (nothing on the FFT path), after the memory
// check and before the operators' upload, whose arrays then reuse the memory of the hierarchy or
// factor it is made from, released here. On one rank AMG's finest level is the solver's −L, laid out
// first where the set-up did not (parts.pressure_matrix). On several ranks collective (AMG coupled
// across them, over sim.domain's halo updates). Prints what it built to `log`.
void lay_out_preconditioner(Simulation& sim, PressureSolverParts& parts, const parallel::LocalNumbering* numbering,
                            index_t slices, parallel::HaloTransport transport, std::ostream& log);

// parts.numerics.poisson's solver on sim's executor, after the upload: PCG with the path's
// preconditioner (lay_out_preconditioner's, which it takes), or the FFT path along a periodic z. On
// several ranks the distributed PCG, its preconditioner built on the owned block (block Jacobi across
// ranks) but AMG's, coupled across them, or the FFT path on the rank's whole periodic lines. The FFT
// path's set-up prints what it built to `log` and adds the times of its parts to `profile`.
std::unique_ptr<time::PressureSolver> make_pressure_solver(Simulation& sim, PressureSolverParts& parts, index_t slices,
                                                           bool singular, const parallel::LocalNumbering* numbering,
                                                           parallel::HaloTransport transport, std::ostream& log,
                                                           StageProfile* profile = nullptr);

}  // namespace miniapp::run
