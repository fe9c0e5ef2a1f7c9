#include "solvers/amg/rank_spectral_bound.hpp"

#include "solvers/amg/spectral_bound.hpp"

namespace miniapp::amg {

double rank_largest_eigenvalue_bound(const parallel::Communicator& comm, HostHalo& halo, const CsrMatrix& a,
                                     const std::vector<double>& d) {
  const RankSplit split{[&](double x) { return comm.allreduce(x, parallel::ReduceOp::sum); },
                        [&](double x) { return comm.allreduce(x, parallel::ReduceOp::max); },
                        [&](std::vector<double>& v) { halo.update(v); }};
  return largest_eigenvalue_bound(a, d, &split);
}

}  // namespace miniapp::amg
