#pragma once
#include <vector>

#include "solvers/amg/amg_options.hpp"
#include "solvers/amg/hierarchy.hpp"
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

// The hierarchy coupled across ranks (docs/amg.md, "Several ranks"): levels split over the ranks,
// from the finest down, each with owned rows and a halo, then the levels gathered whole onto every
// rank. The first gathered one's numbering holds every other rank's entries as halo, so that one halo
// update of its right-hand side (an all-gather) completes it; from it down `redundant` is the
// single-rank hierarchy of its whole matrix, the same on every rank but for its finest level's rows
// and columns, numbered in this rank's gathered order (the coarsest level's pseudo-inverse where the
// gathered level is the coarsest). Per level, split and gathered: global rows and non-zeros.
struct RankHierarchy {
  std::vector<RankLevel> levels;
  parallel::LocalNumbering gathered;
  HostHierarchy redundant;
  struct Size {
    long long rows, nnz;
  };
  std::vector<Size> sizes;  // every level, the coarsest last
};

// Builds it from the finest level: `fine` numbers this rank's cells (as the time loop's Subdomain),
// `owned_rows` its owned rows of the matrix (local columns). Splits levels over the ranks until one has
// at most options.coarse_rows rows over all ranks or, below the finest, options.redundant_rows, or
// coarsening stalls; gathers that one, and builds the rest from it as build_hierarchy does (θ halved
// per level from where the split levels left off, at most options.max_levels in all). Collective;
// throws the same miniapp::Error on every rank for a zero or negative diagonal, several floating
// pieces, or a stalled coarsening with too many rows for the dense coarse solve.
RankHierarchy build_rank_hierarchy(const parallel::Communicator& comm, const parallel::LocalNumbering& fine,
                                   const CsrMatrix& owned_rows, const AmgOptions& options);

double operator_complexity(const RankHierarchy& h);

}  // namespace miniapp::amg
