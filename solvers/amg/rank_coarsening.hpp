#pragma once
#include <vector>

#include "operators/sparse/csr_matrix.hpp"
#include "parallel/communicator.hpp"
#include "parallel/local_numbering.hpp"
#include "solvers/amg/aggregation.hpp"
#include "solvers/amg/rank_rows.hpp"

namespace miniapp::amg {

// One level of the hierarchy as a rank holds it: its entries (owned rows, then the halo of the
// columns those rows read, in the owned-then-halo layout of the time loop: inner rows first, which
// read owned entries only, then interface rows; the halo sorted by owner) and its owned rows.
struct RankMatrix {
  parallel::LocalNumbering numbering;
  CsrMatrix a;  // owned rows × local columns (owned, then halo)
};

// A level coarsened on a rank: the transfers and the coarse level.
struct RankCoarsening {
  CsrMatrix prolongation;  // owned fine rows × coarse local columns
  CsrMatrix restriction;   // owned coarse rows × fine local columns: Pᵀ's rows of the owned coarse entries
  RankMatrix coarse;
};

// Smoothed aggregation across ranks (docs/amg.md): aggregates are made inside each rank (`aggregates`:
// of the owned rows), numbered globally rank after rank; a halo entry's aggregate is its owner's (a
// halo update). P's owned rows are smoothed as on one rank, with ω from the global λmax; the rows of P
// at this rank's halo are fetched from their owners, so that this rank's share of R A P (the
// products over its owned fine rows) is complete; the shares of coarse rows owned elsewhere go to
// their owners, which sum them. R's owned rows are P's columns, gathered from the same rows.
// Collective. d: the level's diagonal on the local entries (halo current); threshold: the level's.
RankCoarsening coarsen_on_ranks(const parallel::Communicator& comm, HostHalo& halo, const RankMatrix& fine,
                                const std::vector<double>& d, double threshold, const Aggregates& aggregates);

// The owned × owned block of a rank's owned rows (halo columns dropped): what aggregation sees.
CsrMatrix owned_block(const CsrMatrix& owned_rows);

// The first global index of each rank's aggregates, and their total last (collective).
std::vector<index_t> rank_offsets(const parallel::Communicator& comm, index_t count);

}  // namespace miniapp::amg
