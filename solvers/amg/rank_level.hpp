#pragma once
#include <memory>

#include "parallel/subdomain.hpp"
#include "solvers/amg/level_matrix.hpp"

namespace miniapp::amg {

// y = M x on several ranks, for a matrix M whose rows are this rank's owned rows of y's level and
// whose columns are x's level's local entries (owned, then halo): a level's A, or a transfer between
// two levels (P, R). x's halo is brought up to date through its level's Subdomain; rows [0, inner)
// read owned entries only and are multiplied while it travels (the overlapped SpMV of thesis §2.4),
// the others once it has arrived. y's halo is left as it was. Without a Subdomain x's halo is taken
// as current (the gathered coarsest level's solution, whole on every rank).
class RankOperator final : public LevelOperator {
 public:
  // `x_domain` must outlive the operator (nullptr: none).
  RankOperator(const Executor& exec, const CsrMatrix& rows, index_t inner, parallel::Subdomain* x_domain,
               index_t slice_height, bool float_values);
  void apply(Vector& x, Vector& y) const override;
  void apply_axpby(Vector& x, double alpha, const Vector& u, double beta, Vector& y) const override;
  void jacobi_step(Vector& x, const Vector& b, const Vector& w, Vector& y) const override;

 private:
  // pass(block, first, count) for the inner rows while x's halo travels, then for the others.
  template <class Pass>
  void overlapped(Vector& x, Pass&& pass) const;

  parallel::Subdomain* x_domain_;
  index_t inner_rows_, other_rows_;
  LevelMatrix inner_, other_;
};

// x = M b from the first gathered level down (RankHierarchy): b's owned entries are copied into a
// vector whose halo is every other rank's entries, one halo update (an all-gather over the level's
// Subdomain) completes it, and `whole` solves on it, on this rank alone, into x's first `rows` entries:
// all of them (the level's solution, whole on every rank) but on a gathered finest level, whose owned
// entries are all that is wanted. `whole`: the coarsest level's pseudo-inverse (one SpMV) or the
// single-rank cycle of the levels gathered redundantly.
class GatheredCoarseSolve final : public CoarseSolve {
 public:
  // `domain`: the first gathered level's (it must outlive the solve).
  GatheredCoarseSolve(const Executor& exec, parallel::Subdomain& domain, std::unique_ptr<CoarseSolve> whole,
                      index_t rows);
  void solve(const Vector& b, Vector& x) const override;

 private:
  Executor exec_;
  parallel::Subdomain& domain_;
  std::unique_ptr<CoarseSolve> whole_;
  index_t rows_;
  mutable Vector gathered_;
};

}  // namespace miniapp::amg
