#pragma once
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

 private:
  parallel::Subdomain* x_domain_;
  index_t inner_rows_, other_rows_;
  LevelMatrix inner_, other_;
};

// x = A⁺ b on the gathered coarsest level (RankHierarchy): b's owned entries are copied into a vector
// whose halo is every other rank's entries, one halo update (an all-gather over the level's
// Subdomain) completes it, and one SpMV with the pseudo-inverse's rows gives x's first inverse.rows
// entries: all of them when it holds every row (the coarsest level's solution, whole on every rank).
class GatheredCoarseSolve final : public CoarseSolve {
 public:
  // `domain`: the coarsest level's (it must outlive the solve); `inverse`: its leading rows × local.
  GatheredCoarseSolve(const Executor& exec, parallel::Subdomain& domain, const CsrMatrix& inverse,
                      index_t slice_height, bool float_values);
  void solve(const Vector& b, Vector& x) const override;

 private:
  Executor exec_;
  parallel::Subdomain& domain_;
  LevelMatrix inverse_;
  mutable Vector gathered_;
};

}  // namespace miniapp::amg
