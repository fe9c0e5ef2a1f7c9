#pragma once
#include "parallel/overlapped_operator.hpp"
#include "solvers/pcg.hpp"

namespace miniapp {

// Preconditioned conjugate gradients over the ranks of a Subdomain (thesis §1.5): vectors in the
// owned-then-halo layout, A applied by the overlapped SpMV (the search direction's halo travels while
// the inner rows are multiplied), a preconditioner that reads no halo entry of r (one local to each
// rank, block Jacobi; or AMG coupled across ranks, which updates the halos of its own vectors and is
// then collective), and the dots of an iteration fused into two global reductions (pᵀAp; then r·r
// and r·z together). Each reduction is a host round trip, so this path makes no use of
// PcgOptions::check_interval. Same stopping test, warm start and singular mode as Pcg.
class DistributedPcg {
 public:
  // `domain` must outlive the solver; vectors passed to solve have domain.local_count() entries.
  DistributedPcg(const Executor& exec, parallel::Subdomain& domain);

  // Solves A x = b on the owned rows, starting from the incoming x (its halo need not be current);
  // on return x's owned entries hold the solution (x's halo is not updated). Collective.
  PcgResult solve(const parallel::OverlappedOperator& a, const Preconditioner& m, const Vector& b, Vector& x,
                  const PcgOptions& options);

 private:
  void remove_mean(Vector& v);

  Executor exec_;
  parallel::Subdomain& domain_;
  long long global_rows_;
  Vector r_, z_, p_, q_, rhs_, ones_;
};

// The owned × owned block of a local square matrix, padded to local size with unit diagonal rows for
// the halo: what a rank-local (block Jacobi) preconditioner is built from, so that it never couples
// owned entries to the halo.
CsrMatrix block_of_owned_rows(const CsrMatrix& local, index_t owned);

}  // namespace miniapp
