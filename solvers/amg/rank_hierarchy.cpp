#include "solvers/amg/rank_hierarchy.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>

#include "operators/sparse/reorder.hpp"
#include "solvers/amg/hierarchy.hpp"
#include "solvers/amg/prolongation.hpp"
#include "solvers/amg/rank_spectral_bound.hpp"
#include "solvers/matrix_checks.hpp"

namespace miniapp::amg {
namespace {

// As on one rank (hierarchy.cpp): coarsening that keeps more than this fraction of the rows has
// stalled; a dense coarse solve takes at most dense_rows rows.
constexpr double stalled_ratio = 0.9;
constexpr long long dense_rows = 5000;

// The whole matrix of a level, gathered from every rank (rows in global order), and its gathered
// numbering: this rank's entries as before, then every other rank's as halo, by owner.
std::pair<CsrMatrix, parallel::LocalNumbering> gather_whole(const parallel::Communicator& comm, const RankMatrix& m) {
  const parallel::LocalNumbering& n = m.numbering;
  GlobalRows mine;
  for (index_t i = 0; i < n.owned_count(); ++i) mine.append(n.local_to_global[i], m.a, i, n.local_to_global);
  const std::vector<GlobalRows> all = exchange_rows(comm, std::vector<GlobalRows>(comm.size(), mine));
  parallel::LocalNumbering g;
  g.rank = comm.rank();
  g.interface_count = n.owned_count();  // every owned entry is sent to every rank
  g.local_to_global.assign(n.local_to_global.begin(), n.local_to_global.begin() + n.owned_count());
  std::vector<index_t> ids;  // global indices of the whole matrix's rows
  for (int q = 0; q < comm.size(); ++q) {
    ids.insert(ids.end(), all[q].id.begin(), all[q].id.end());
    if (q == comm.rank()) continue;
    g.local_to_global.insert(g.local_to_global.end(), all[q].id.begin(), all[q].id.end());
    g.halo_owner.insert(g.halo_owner.end(), all[q].id.size(), q);
  }
  g.halo_count = static_cast<index_t>(g.halo_owner.size());
  for (index_t l = 0; l < g.local_count(); ++l) g.global_to_local.emplace(g.local_to_global[l], l);
  std::sort(ids.begin(), ids.end());
  std::unordered_map<index_t, index_t> position;
  for (std::size_t p = 0; p < ids.size(); ++p) position.emplace(ids[p], static_cast<index_t>(p));
  std::vector<Triplet> t;
  for (const GlobalRows& rows : all)
    for (index_t r = 0; r < rows.count(); ++r)
      for (index_t k = rows.ptr[r]; k < rows.ptr[r + 1]; ++k)
        t.push_back({position.at(rows.id[r]), position.at(rows.col[k]), rows.val[k]});
  const auto n_whole = static_cast<index_t>(ids.size());
  CsrMatrix whole = csr_from_triplets(n_whole, n_whole, std::move(t));
  return {std::move(whole), std::move(g)};
}

// The levels from m's down, gathered whole onto every rank: the single-rank hierarchy of m's whole
// matrix, built on every rank from the same input, so the same everywhere (its errors too), m's level
// then renumbered into the gathered local order. `split`: the levels above m (θ is halved as many
// times, exactly, being a power of two); `levels`: at most this many.
std::pair<HostHierarchy, parallel::LocalNumbering> gather_below(const parallel::Communicator& comm,
                                                                const RankMatrix& m, const AmgOptions& options,
                                                                int split, int levels) {
  auto [whole, numbering] = gather_whole(comm, m);
  AmgOptions below = options;
  below.strength_threshold = options.strength_threshold * std::pow(0.5, static_cast<double>(split));
  below.max_levels = levels;
  HostHierarchy h;
  comm.run_collectively([&] { h = build_hierarchy(std::move(whole), below); });
  // Row p of `whole` is the p-th smallest global index.
  std::vector<index_t> sorted(numbering.local_to_global);
  std::sort(sorted.begin(), sorted.end());
  std::vector<index_t> new_to_old(sorted.size());
  for (std::size_t l = 0; l < sorted.size(); ++l)
    new_to_old[l] = static_cast<index_t>(
        std::lower_bound(sorted.begin(), sorted.end(), numbering.local_to_global[l]) - sorted.begin());
  const Permutation order = Permutation::from_new_to_old(std::move(new_to_old));
  if (h.levels.empty()) {
    h.coarsest = permute_symmetric(h.coarsest, order);
    h.coarse_inverse = permute_symmetric(h.coarse_inverse, order);
  } else {
    HostLevel& first = h.levels.front();
    // Built on the host alone: every matrix is there.
    first.a.host = permute_symmetric(first.a.host, order);
    first.diagonal = permute_vector(first.diagonal, order);
    CsrMatrix& p = first.prolongation.host;
    p = permute(p, order, Permutation::identity(p.cols));
    CsrMatrix& r = first.restriction.host;
    r = permute(r, Permutation::identity(r.rows), order);
  }
  return {std::move(h), std::move(numbering)};
}

// P's columns renamed from the coarse level's numbering `from` to `to` (same entries).
void renumber_columns(CsrMatrix& p, const parallel::LocalNumbering& from, const parallel::LocalNumbering& to) {
  for (index_t& c : p.col) c = to.to_local(from.local_to_global[c]);
  p.cols = to.local_count();
}

}  // namespace

RankHierarchy build_rank_hierarchy(const parallel::Communicator& comm, const parallel::LocalNumbering& fine,
                                   const CsrMatrix& owned_rows, const AmgOptions& options) {
  check_options(options);  // the same options on every rank: the same error everywhere
  RankHierarchy h;
  RankMatrix current{fine, owned_rows};
  bool small_enough = false;
  while (true) {
    const long long rows = comm.allreduce(static_cast<long long>(current.a.rows), parallel::ReduceOp::sum);
    h.sizes.push_back({rows, comm.allreduce(static_cast<long long>(current.a.nnz()), parallel::ReduceOp::sum)});
    // The finest level, the solver's own, stays split unless small enough for the dense coarse solve.
    const long long gathered_from =
        h.levels.empty() ? options.coarse_rows : std::max(options.coarse_rows, options.redundant_rows);
    small_enough = rows <= gathered_from;
    if (small_enough || static_cast<int>(h.levels.size()) + 1 >= options.max_levels) break;
    HostHalo halo(comm, current.numbering);
    const CsrMatrix block = owned_block(current.a);
    std::vector<double> d;
    comm.run_collectively([&] { d = positive_diagonal(block, h.levels.empty() ? "AMG" : "AMG (a coarse level)"); });
    d.resize(static_cast<std::size_t>(current.numbering.local_count()));
    halo.update(d);
    const double threshold = options.strength_threshold * std::pow(0.5, static_cast<double>(h.levels.size()));
    const Aggregates aggregates = aggregate(filtered_matrix(block, d, threshold), d);
    if (comm.allreduce(static_cast<long long>(aggregates.count), parallel::ReduceOp::sum) > stalled_ratio * rows)
      break;
    RankLevel level;
    level.lambda_max = rank_largest_eigenvalue_bound(comm, halo, current.a, d);
    RankCoarsening c = coarsen_on_ranks(comm, halo, current, d, threshold, aggregates);
    level.diagonal = std::move(d);
    level.matrix = std::move(current);
    level.prolongation = std::move(c.prolongation);
    level.restriction = std::move(c.restriction);
    current = std::move(c.coarse);
    h.levels.push_back(std::move(level));
  }
  if (!small_enough && h.sizes.back().rows > dense_rows)
    throw parallel::CollectiveError("AMG: coarsening stalled at " + std::to_string(h.sizes.back().rows) +
                                    " rows, too many for the dense coarse solve (the matrix has too few strong "
                                    "connections)");
  // Stalled or at max_levels, the gathered level is the coarsest.
  const int split = static_cast<int>(h.levels.size());
  auto [redundant, gathered] =
      gather_below(comm, current, options, split, small_enough ? options.max_levels - split : 1);
  if (!h.levels.empty()) renumber_columns(h.levels.back().prolongation, current.numbering, gathered);
  for (std::size_t l = 1; l < redundant.levels.size(); ++l)
    h.sizes.push_back({redundant.levels[l].rows(), redundant.levels[l].nnz()});
  if (!redundant.levels.empty()) h.sizes.push_back({redundant.coarsest.rows, redundant.coarsest.nnz()});
  h.gathered = std::move(gathered);
  h.redundant = std::move(redundant);
  return h;
}

double operator_complexity(const RankHierarchy& h) {
  double sum = 0;
  for (const RankHierarchy::Size& s : h.sizes) sum += static_cast<double>(s.nnz);
  return sum / static_cast<double>(h.sizes.front().nnz);
}

}  // namespace miniapp::amg
