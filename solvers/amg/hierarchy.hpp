#pragma once
#include <vector>

#include "operators/sparse/csr_matrix.hpp"
#include "solvers/amg/amg_options.hpp"
#include "solvers/amg/setup_profile.hpp"

namespace miniapp::amg {

// One level above the coarsest: its matrix, the diagonal's largest-eigenvalue bound of D⁻¹A for the
// smoother, and the transfers to the next coarser level (P: rows × coarse rows, R = Pᵀ).
struct HostLevel {
  CsrMatrix a;
  std::vector<double> diagonal;
  double lambda_max = 0;
  CsrMatrix prolongation, restriction;
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
// constants as null space). Throws miniapp::Error, naming what is wrong, for a non-square matrix, a
// zero or negative diagonal, a graph with several floating pieces, or a coarsest matrix that is not
// positive semi-definite.
HostHierarchy build_hierarchy(const CsrMatrix& a, const AmgOptions& options);

// Σ nnz(A_l) / nnz(A_0) over every level, the coarsest included: the hierarchy's matrices' size
// against the fine one's (operator complexity).
double operator_complexity(const HostHierarchy& h);

}  // namespace miniapp::amg
