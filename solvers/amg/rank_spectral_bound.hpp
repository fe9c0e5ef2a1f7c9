#pragma once
#include <vector>

#include "operators/sparse/csr_matrix.hpp"
#include "parallel/communicator.hpp"
#include "solvers/amg/rank_rows.hpp"

namespace miniapp::amg {

// largest_eigenvalue_bound of a matrix split over ranks: `a` holds this rank's owned rows, its columns
// the level's local entries (owned, then halo), d its diagonal on the same local entries (halo
// included). The power iterations exchange the iterate's halo through `halo` and sum norms over
// ranks, so every rank returns the same bound (collective).
double rank_largest_eigenvalue_bound(const parallel::Communicator& comm, HostHalo& halo, const CsrMatrix& a,
                                     const std::vector<double>& d);

}  // namespace miniapp::amg
