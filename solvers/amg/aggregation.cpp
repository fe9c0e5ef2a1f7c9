#include "solvers/amg/aggregation.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>

#include "operators/backend/cpu/parallel.hpp"
#include "solvers/amg/aggregation_rules.hpp"
#include "solvers/amg/parallel_setup.hpp"

namespace miniapp::amg {
namespace {

using namespace aggregation_rules;

// out[i] = the largest of in[j] over j = i and i's neighbours in g, for every row.
void neighbourhood_max(const CsrMatrix& g, const std::vector<std::uint64_t>& in, std::vector<std::uint64_t>& out) {
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(g.nnz()))
  for (index_t i = 0; i < g.rows; ++i) {
    std::uint64_t m = in[i];
    for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) m = std::max(m, in[g.col[k]]);
    out[i] = m;
  }
}

// The largest state within two links of row i, by walking them.
std::uint64_t two_link_max(const CsrMatrix& g, const std::vector<std::uint64_t>& state, index_t i) {
  std::uint64_t m = state[i];
  for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) {
    const index_t j = g.col[k];
    m = std::max(m, state[j]);
    for (index_t q = g.row_ptr[j]; q < g.row_ptr[j + 1]; ++q) m = std::max(m, state[g.col[q]]);
  }
  return m;
}

// The rows still undecided, in row order.
std::vector<index_t> undecided_rows(const std::vector<std::uint64_t>& state) {
  return indices_where(static_cast<index_t>(state.size()), [&](index_t i) { return undecided(state[i]); });
}

// Excludes every undecided row within two links of row c (none of them can have been chosen in the same
// round as c; concurrent writers write the same value).
void exclude_around(const CsrMatrix& g, std::vector<std::uint64_t>& state, index_t c) {
  const auto exclude = [&](index_t j) {
    std::atomic_ref<std::uint64_t> s(state[j]);
    if (s.load(std::memory_order_relaxed) != chosen) s.store(excluded, std::memory_order_relaxed);
  };
  for (index_t k = g.row_ptr[c]; k < g.row_ptr[c + 1]; ++k) {
    const index_t j = g.col[k];
    exclude(j);
    for (index_t q = g.row_ptr[j]; q < g.row_ptr[j + 1]; ++q) exclude(g.col[q]);
  }
}

// A maximal distance-2 independent set of g among the candidate rows (Bell, Dalton and Olson, "Exposing fine-grained
// parallelism in algebraic multigrid methods", 2012): in each round an undecided row whose priority is
// the largest within two links joins the set, and the rows within two links of it leave. The rounds'
// choices read the previous round's states only, so the set does not depend on the thread count (it
// is the greedy set of the priority order). The largest state within two links comes from two passes
// over every row while many rows are undecided, by walking the links of the few left afterwards.
std::vector<char> distance_two_independent_set(const CsrMatrix& g, const std::vector<char>& candidate) {
  std::vector<std::uint64_t> state(static_cast<std::size_t>(g.rows)), near(state.size()), within_two(state.size());
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(g.nnz()))
  for (index_t i = 0; i < g.rows; ++i) state[i] = candidate[i] ? priority(i) : excluded;
  const double walk_per_row = g.rows > 0 ? std::pow(1.0 + static_cast<double>(g.nnz()) / g.rows, 2) : 0;
  for (std::vector<index_t> left = undecided_rows(state); !left.empty(); left = undecided_rows(state)) {
    const auto n = static_cast<index_t>(left.size());
    const bool walk = static_cast<double>(n) * walk_per_row < 2.0 * static_cast<double>(g.nnz() + g.rows);
    if (!walk) {
      neighbourhood_max(g, state, near);
      neighbourhood_max(g, near, within_two);
    }
    std::vector<char> chose(left.size(), 0);
    const bool parallel = cpu::worth_parallel(walk ? n * static_cast<index_t>(walk_per_row) : g.nnz());
#pragma omp parallel for schedule(static) if (parallel)
    for (index_t r = 0; r < n; ++r) {
      const index_t i = left[r];
      chose[r] = (walk ? two_link_max(g, state, i) : within_two[i]) == state[i];
    }
#pragma omp parallel for schedule(static) if (parallel)
    for (index_t r = 0; r < n; ++r)
      if (chose[r]) state[left[r]] = chosen;
#pragma omp parallel for schedule(dynamic, 256) if (parallel)
    for (index_t r = 0; r < n; ++r)
      if (chose[r]) exclude_around(g, state, left[r]);
  }
  std::vector<char> member(state.size());
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(g.nnz()))
  for (index_t i = 0; i < g.rows; ++i) member[i] = state[i] == chosen;
  return member;
}

// Numbers the rows where `pick` in row order from `first`: the aggregate of each picked row (free_row
// elsewhere); returns the count.
index_t number_rows(const std::vector<char>& pick, index_t first, std::vector<index_t>& id) {
  const auto n = static_cast<index_t>(pick.size());
  const std::vector<index_t> picked = indices_where(n, [&](index_t i) { return pick[i] != 0; });
  id.assign(pick.size(), free_row);
  const auto count = static_cast<index_t>(picked.size());
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(n))
  for (index_t k = 0; k < count; ++k) id[picked[k]] = first + k;
  return count;
}

// Each root (`id` set) takes its strong neighbours that are still free in `of_row`; roots lie three
// links apart or more, so no row has two among its neighbours.
void take_neighbours(const CsrMatrix& g, const std::vector<index_t>& id, std::vector<index_t>& of_row) {
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(g.nnz()))
  for (index_t i = 0; i < g.rows; ++i) {
    if (of_row[i] != free_row) continue;
    if (id[i] != free_row) of_row[i] = id[i];
    else
      for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k)
        if (id[g.col[k]] != free_row) of_row[i] = id[g.col[k]];
  }
}

// The free rows with enough free strong neighbours for a second root.
std::vector<char> second_candidates(const CsrMatrix& g, const std::vector<index_t>& of_row) {
  std::vector<char> candidate(of_row.size(), 0);
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(g.nnz()))
  for (index_t i = 0; i < g.rows; ++i) {
    if (of_row[i] != free_row) continue;
    int free_neighbours = 0;
    for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) free_neighbours += g.col[k] != i && of_row[g.col[k]] == free_row;
    candidate[i] = free_neighbours >= second_root_neighbours;
  }
  return candidate;
}

// Renumbers the aggregates in the order of their roots' rows (`root`: the rows chosen by either set;
// each is its own aggregate's only root), so that consecutive coarse rows come from neighbouring fine
// rows: the restriction R = Pᵀ, row by row, then sweeps the fine vector once instead of once per set
// of roots, and the coarse matrix keeps the fine ordering's locality.
void number_by_roots(const std::vector<char>& root, Aggregates& a) {
  const auto n = static_cast<index_t>(a.of_row.size());
  a.root = indices_where(n, [&](index_t i) { return root[i] != 0; });
  std::vector<index_t> renamed(static_cast<std::size_t>(a.count));
  const auto count = static_cast<index_t>(a.root.size());
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(n))
  for (index_t k = 0; k < count; ++k) renamed[a.of_row[a.root[k]]] = k;
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(n))
  for (index_t i = 0; i < n; ++i) a.of_row[i] = renamed[a.of_row[i]];
}

}  // namespace

Aggregates aggregate(const CsrMatrix& filtered, const std::vector<double>& d) {
  const CsrMatrix& g = filtered;  // its off-diagonal entries are the strong links
  Aggregates result;
  result.of_row.assign(static_cast<std::size_t>(g.rows), free_row);
  std::vector<index_t> id;
  // Roots over all rows, then new roots among the rows left free that still have many free neighbours:
  // random roots pack less densely than a sequential sweep, and without the second pass the aggregates
  // of a hex mesh grew from about 8 to 11 rows and cost 3 iterations more.
  std::vector<char> root = distance_two_independent_set(g, std::vector<char>(result.of_row.size(), 1));
  result.count += number_rows(root, 0, id);
  take_neighbours(g, id, result.of_row);
  const std::vector<char> second_root = distance_two_independent_set(g, second_candidates(g, result.of_row));
  result.count += number_rows(second_root, result.count, id);
  take_neighbours(g, id, result.of_row);
  // Left-over rows (two links from a root) join by the roots' aggregates only (not by rows that join in
  // this pass), so the aggregates stay within one link of their root.
  const std::vector<index_t> rooted = result.of_row;
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(g.nnz()))
  for (index_t i = 0; i < g.rows; ++i) {
    if (rooted[i] != free_row) continue;
    double strongest = -1;  // the strongest link of row i: the largest join_strength
    for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) {
      const index_t j = g.col[k];
      const double strength = join_strength(g.val[k], d[j]);
      if (j != i && rooted[j] != free_row && strength > strongest) {
        strongest = strength;
        result.of_row[i] = rooted[j];
      }
    }
  }
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(g.rows))
  for (index_t i = 0; i < g.rows; ++i) root[i] |= second_root[i];
  number_by_roots(root, result);
  return result;
}

}  // namespace miniapp::amg
