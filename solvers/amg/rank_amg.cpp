// Amg on several ranks: the levels of a RankHierarchy as rank operators over one Subdomain per level.
#include "operators/backend/device_matrix.hpp"
#include "parallel/overlapped_operator.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/amg/amg_level.hpp"
#include "solvers/amg/rank_level.hpp"

namespace miniapp {

Amg::Amg(const Executor& exec, parallel::Subdomain& fine, const amg::RankHierarchy& h, const amg::AmgOptions& options,
         index_t slice_height, parallel::HaloTransport transport)
    : exec_(exec), operator_complexity_(amg::operator_complexity(h)), float_storage_(options.float_storage) {
  if (!fine.communicator()) throw Error("Amg: a hierarchy of several ranks needs a distributed Subdomain");
  const parallel::Communicator& comm = *fine.communicator();
  const bool f = options.float_storage;
  std::vector<parallel::Subdomain*> domain{&fine};  // per level, the coarsest last
  for (std::size_t l = 1; l <= h.levels.size(); ++l) {
    const parallel::LocalNumbering& n = l < h.levels.size() ? h.levels[l].matrix.numbering : h.coarsest;
    domains_.push_back(std::make_unique<parallel::Subdomain>(comm, exec, n, transport));
    domain.push_back(domains_.back().get());
  }
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const amg::RankLevel& level = h.levels[l];
    // The coarsest level's solution is whole on every rank: P reads it without a halo update.
    parallel::Subdomain* coarse = l + 1 < h.levels.size() ? domain[l + 1] : nullptr;
    auto a = std::make_unique<amg::RankOperator>(exec, level.matrix.a, level.matrix.numbering.inner_count, domain[l],
                                                 slice_height, f);
    auto p = std::make_unique<amg::RankOperator>(exec, level.prolongation, 0, coarse, slice_height, f);
    auto r = std::make_unique<amg::RankOperator>(exec, level.restriction, 0, domain[l], slice_height, f);
    levels_.push_back(std::make_unique<Level>(exec, std::move(a), std::move(p), std::move(r), level.diagonal,
                                              level.lambda_max, domain[l + 1]->local_count(), options));
  }
  // A hierarchy of one level solves the fine system directly: only its owned rows are wanted.
  const CsrMatrix& inverse = h.levels.empty() ? parallel::row_block(h.coarse_inverse, 0, h.coarsest.owned_count())
                                              : h.coarse_inverse;
  coarse_solve_ = std::make_unique<amg::GatheredCoarseSolve>(exec, *domain.back(), inverse, slice_height, f);
  for (const amg::RankHierarchy::Size& s : h.sizes) sizes_.push_back({s.rows, s.nnz});
}

}  // namespace miniapp
