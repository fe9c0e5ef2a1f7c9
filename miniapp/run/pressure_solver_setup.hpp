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

namespace miniapp::run {

// What one pressure path's solver is made from, prepared on the host before the memory check so that
// the check counts it: with AMG on the PCG path its hierarchy (of −L on one rank, coupled across the
// ranks on several), with AIP G's host matrices (uploaded, not built again); nothing else for Jacobi
// and the FFT path.
struct PressureSolverParts {
  cases::NumericsConfig numerics;  // the path's: poisson and preconditioner resolved
  std::optional<amg::HostHierarchy> amg_one_rank;
  std::optional<amg::RankHierarchy> amg_ranks;
  std::optional<AipHostMatrices> aip;
  // The solver's −L in executor memory, where AMG's set-up ran on a CUDA device: uploaded once, read
  // there by the set-up and laid out as the solver's sELL, which the operators' upload then takes
  // (time::DeviceOperators) instead of uploading −L again.
  std::optional<DeviceSell> pressure_matrix;
};

// The parts of the path `numerics` names, on sim's host operators; on several ranks (`numbering`: the
// rank's cells) collective over `comm`. Prints each stage's time to `log`.
PressureSolverParts prepare_pressure_solver(const Simulation& sim, const cases::NumericsConfig& numerics,
                                            const parallel::Communicator* comm,
                                            const parallel::LocalNumbering* numbering, index_t slices,
                                            std::ostream& log);

struct BuiltPressureSolver {
  std::unique_ptr<time::PressureSolver> solver;
  std::optional<AipForm> aip_form;  // the form its AIP took; empty for Jacobi, AMG and the FFT path
};

// parts.numerics.poisson's solver on sim's executor, after the upload: PCG with the path's
// preconditioner, or the FFT path along a periodic z. On several ranks the distributed PCG, its
// preconditioner built on the owned block (block Jacobi across ranks) but AMG's, coupled across them,
// or the FFT path on the rank's whole periodic lines. Prints what it built to `log`; the FFT path's
// set-up adds the times of its parts to `profile`.
BuiltPressureSolver make_pressure_solver(Simulation& sim, const PressureSolverParts& parts, index_t slices,
                                         bool singular, const parallel::LocalNumbering* numbering,
                                         parallel::HaloTransport transport, std::ostream& log,
                                         StageProfile* profile = nullptr);

}  // namespace miniapp::run
