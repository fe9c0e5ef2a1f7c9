#pragma once
#include <vector>

#include "solvers/amg/amg_options.hpp"
#include "solvers/amg/rank_coarsening.hpp"

namespace miniapp::amg {

// One level above the coarsest on a rank: its matrix, diagonal on the local entries (halo included),
// the global λmax(D⁻¹A) bound for the smoother, and the transfers to the next coarser level.
struct RankLevel {
  RankMatrix matrix;
  std::vector<double> diagonal;
  double lambda_max = 0;
  CsrMatrix prolongation, restriction;  // see RankCoarsening
};

// The hierarchy coupled across ranks (docs/amg.md, "Several ranks"): levels from the finest down,
// each with owned rows and a halo, then the coarsest, gathered: its numbering holds every other
// rank's entries as halo, and coarse_inverse is the whole coarsest matrix's dense pseudo-inverse, all
// its rows in that local order, so that one halo update of the right-hand side (an all-gather) and
// one SpMV give every rank the whole coarse solution. Per level: global rows and non-zeros.
struct RankHierarchy {
  std::vector<RankLevel> levels;
  parallel::LocalNumbering coarsest;
  CsrMatrix coarse_inverse;
  struct Size {
    long long rows, nnz;
  };
  std::vector<Size> sizes;  // every level, the coarsest last
};

// Builds it from the finest level: `fine` numbers this rank's cells (as the time loop's Subdomain),
// `owned_rows` its owned rows of the matrix (local columns). Stops, like build_hierarchy, once a level
// has at most options.coarse_rows rows over all ranks, or coarsening stalls. Collective; throws the
// same miniapp::Error on every rank for a zero or negative diagonal, several floating pieces, or a
// stalled coarsening with too many rows for the dense coarse solve.
RankHierarchy build_rank_hierarchy(const parallel::Communicator& comm, const parallel::LocalNumbering& fine,
                                   const CsrMatrix& owned_rows, const AmgOptions& options);

double operator_complexity(const RankHierarchy& h);

}  // namespace miniapp::amg
