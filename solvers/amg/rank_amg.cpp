// Amg on several ranks: the levels of a RankHierarchy split over the ranks as rank operators over one
// Subdomain per level, then the gathered levels through one all-gather and a single-rank solve.
#include "operators/backend/device_matrix.hpp"
#include "parallel/overlapped_operator.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/amg/amg_level.hpp"
#include "solvers/amg/rank_level.hpp"

namespace miniapp {
namespace {

// The coarse solve's rows where the gathered level is the coarsest: all of them, but for a hierarchy of
// one level, which solves the fine system directly, where only the owned rows are wanted.
CsrMatrix stored_inverse(const amg::RankHierarchy& h) {
  const CsrMatrix& inverse = h.redundant.coarse_inverse;
  return h.levels.empty() ? parallel::row_block(inverse, 0, h.gathered.owned_count()) : inverse;
}

// The V-cycle of the levels gathered redundantly, on this rank alone: the single-rank Amg of them,
// from their finest level's whole right-hand side to its whole correction.
class RedundantCycle final : public amg::CoarseSolve {
 public:
  RedundantCycle(const Executor& exec, const amg::HostHierarchy& h, const amg::AmgOptions& options,
                 index_t slice_height)
      : amg_(exec, h, options, slice_height) {}
  void solve(const Vector& b, Vector& x) const override { amg_.apply(b, x); }

 private:
  Amg amg_;
};

}  // namespace

std::size_t Amg::device_bytes(const parallel::Communicator& comm, const amg::RankHierarchy& h, index_t slice_height,
                              const amg::AmgOptions& options) {
  const bool float_storage = options.float_storage;
  const auto doubles = [](index_t n) { return sizeof(double) * static_cast<std::size_t>(n); };
  const int level_vectors = amg::ChebyshevSmoother::vectors(options.smoother_degree) + 2;
  // A level's halo exchange, made by the constructor for every level but the finest: it updates one
  // vector at a time.
  const auto halo_bytes = [&](const parallel::LocalNumbering& n) {
    return parallel::HaloExchange::device_bytes(parallel::halo_send_count(comm, n), 1);
  };
  // A matrix as a RankOperator stores it: its inner rows and the others, one sELL each (P and R have
  // no inner rows).
  const auto rank_operator_bytes = [&](const CsrMatrix& m, index_t inner_rows) {
    return parallel::split_rows_device_bytes(m, inner_rows, m.rows, slice_height, float_storage);
  };
  // The gathered right-hand side and its exchange, and the solve from it down.
  std::size_t bytes = doubles(h.gathered.local_count()) + halo_bytes(h.gathered);
  bytes += h.redundant.levels.empty() ? amg::level_device_bytes(stored_inverse(h), slice_height, float_storage)
                                      : device_bytes(h.redundant, slice_height, options);
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const amg::RankLevel& level = h.levels[l];
    const index_t inner = level.matrix.numbering.inner_count;
    const index_t coarse = l + 1 < h.levels.size() ? h.levels[l + 1].matrix.numbering.local_count()
                                                   : h.gathered.local_count();
    // A, P and R; the smoother's vectors, residual and correction, and the coarser level's b and x.
    bytes += rank_operator_bytes(level.matrix.a, inner) + rank_operator_bytes(level.prolongation, 0) +
             rank_operator_bytes(level.restriction, 0) + level_vectors * doubles(level.matrix.numbering.local_count()) +
             2 * doubles(coarse);
    if (l > 0) bytes += halo_bytes(level.matrix.numbering);
  }
  return bytes;
}

Amg::Amg(const Executor& exec, parallel::Subdomain& fine, const amg::RankHierarchy& h, const amg::AmgOptions& options,
         index_t slice_height, parallel::HaloTransport transport)
    : exec_(exec), fine_(&fine), operator_complexity_(amg::operator_complexity(h)),
      float_storage_(options.float_storage) {
  if (!fine.communicator()) throw Error("Amg: a hierarchy of several ranks needs a distributed Subdomain");
  const parallel::Communicator& comm = *fine.communicator();
  const bool f = options.float_storage;
  std::vector<parallel::Subdomain*> domain{&fine};  // per split level, then the first gathered one
  const auto add_domain = [&](const parallel::LocalNumbering& n) {
    domains_.push_back(std::make_unique<parallel::Subdomain>(comm, exec, n, transport));
    domain.push_back(domains_.back().get());
  };
  for (std::size_t l = 1; l < h.levels.size(); ++l) add_domain(h.levels[l].matrix.numbering);
  add_domain(h.gathered);
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const amg::RankLevel& level = h.levels[l];
    // The gathered levels' solution is whole on every rank: P reads it without a halo update.
    parallel::Subdomain* coarse = l + 1 < h.levels.size() ? domain[l + 1] : nullptr;
    auto a = std::make_unique<amg::RankOperator>(exec, level.matrix.a, level.matrix.numbering.inner_count, domain[l],
                                                 slice_height, f);
    auto p = std::make_unique<amg::RankOperator>(exec, level.prolongation, 0, coarse, slice_height, f);
    auto r = std::make_unique<amg::RankOperator>(exec, level.restriction, 0, domain[l], slice_height, f);
    levels_.push_back(std::make_unique<Level>(exec, std::move(a), std::move(p), std::move(r), level.diagonal,
                                              level.lambda_max, domain[l + 1]->local_count(), options));
  }
  std::unique_ptr<amg::CoarseSolve> whole;
  index_t rows = h.gathered.local_count();
  if (h.redundant.levels.empty()) {
    const CsrMatrix inverse = stored_inverse(h);
    rows = inverse.rows;
    // The coarse inverse is symmetric in either precision: kept in CSR with its double values.
    whole = amg::kept_in_csr(inverse.rows, inverse.nnz())
                ? std::make_unique<amg::LevelMatrix>(DeviceCsr(exec, inverse))
                : std::make_unique<amg::LevelMatrix>(exec, to_sell(inverse, slice_height), f);
  } else {
    whole = std::make_unique<RedundantCycle>(exec, h.redundant, options, slice_height);
  }
  coarse_solve_ = std::make_unique<amg::GatheredCoarseSolve>(exec, *domain.back(), std::move(whole), rows);
  for (const amg::RankHierarchy::Size& s : h.sizes) sizes_.push_back({s.rows, s.nnz});
}

}  // namespace miniapp
