#pragma once
#include <vector>

#include "operators/backend/executor.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "solvers/amg/amg_options.hpp"
#include "solvers/amg/setup_matrix.hpp"
#include "solvers/amg/setup_profile.hpp"

namespace miniapp::amg {

// One level above the coarsest: its matrix, the diagonal's largest-eigenvalue bound of D⁻¹A for the
// smoother, and the transfers to the next coarser level (P: rows × coarse rows, R = Pᵀ). A level built
// on a CUDA device (build_hierarchy) leaves P and R there, and a coarser level whose A a device
// multiplied keeps it there too (on the host as well only where a host step read it): Amg lays them
// out from there, with no round trip through the host.
struct HostLevel {
  SetupMatrix a;
  std::vector<double> diagonal;
  double lambda_max = 0;
  SetupMatrix prolongation, restriction;
  index_t rows() const { return a.rows(); }
  index_t nnz() const { return a.nnz(); }
  index_t coarse_rows() const { return restriction.rows(); }
};

// The hierarchy built on the host from the matrix alone: levels from the finest down, then the
// coarsest matrix and its dense pseudo-inverse. A_{l+1} = R_l A_l P_l (Galerkin).
struct HostHierarchy {
  std::vector<HostLevel> levels;
  CsrMatrix coarsest, coarse_inverse;
  SetupProfile profile;  // the host stages' wall seconds (conversion and upload: Amg's)
};

// Throws miniapp::Error naming the first option out of its range.
void check_options(const AmgOptions& options);

// Builds the hierarchy of a (symmetric, positive diagonal, positive semi-definite with at most the
// constants as null space), which its finest level keeps: a temporary spares a copy. Throws
// miniapp::Error, naming what is wrong, for a non-square matrix, a zero or negative diagonal, a graph
// with several floating pieces, or a coarsest matrix that is not positive semi-definite. With a CUDA
// executor the steps of levels of at least device_setup_rows rows (aggregation, eigenvalue bound,
// prolongation and its transpose, Galerkin products) run on its device (device_aggregation.hpp,
// device_level.hpp, device_galerkin.hpp), each on the host where the device cannot take it: the
// same hierarchy, bit for bit; their P and R, and the coarser levels' A, stay there (HostLevel), the
// host copying a coarser A only where one of its steps reads it.
HostHierarchy build_hierarchy(CsrMatrix a, const AmgOptions& options, const Executor* exec = nullptr);
// The same from `a` on the host and, where its caller has uploaded it already (the solver's own −L,
// uploaded once for both), on exec's device too: the device steps read that copy instead of making
// one. Throws miniapp::Error when `a` has no host copy (the host's checks read it).
HostHierarchy build_hierarchy(SetupMatrix a, const AmgOptions& options, const Executor* exec = nullptr);

// Below this many rows a level's set-up takes a few milliseconds on the host, about what its kernels'
// launches and host reads cost on a device (one such level of 3·10⁴ rows took 27 ms on 16 host
// threads and about 10 on an H200, docs/amg.md).
inline constexpr index_t device_setup_rows = 10000;

// Σ nnz(A_l) / nnz(A_0) over every level, the coarsest included: the hierarchy's matrices' size
// against the fine one's (operator complexity).
double operator_complexity(const HostHierarchy& h);

}  // namespace miniapp::amg
