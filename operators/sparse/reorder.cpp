#include "operators/sparse/reorder.hpp"

#include <omp.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include "core/parallel_exceptions.hpp"
#include "operators/sparse/csr_rows.hpp"

namespace miniapp {

Permutation Permutation::identity(index_t n) {
  std::vector<index_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  return from_new_to_old(std::move(order));
}

Permutation Permutation::from_new_to_old(std::vector<index_t> new_to_old) {
  const index_t n = checked_index(new_to_old.size(), "Permutation");
  std::vector<index_t> old_to_new(static_cast<std::size_t>(n), -1);
  for (index_t i = 0; i < n; ++i) {
    const index_t old = new_to_old[i];
    if (old < 0 || old >= n || old_to_new[old] != -1)
      throw Error("Permutation: entry " + std::to_string(i) + " maps to old index " + std::to_string(old) +
                  ", which is out of [0, " + std::to_string(n) + ") or already taken");
    old_to_new[old] = i;
  }
  return Permutation{std::move(new_to_old), std::move(old_to_new)};
}

namespace {

// The adjacency graph of a square matrix restricted to rows of the same bucket (self loops dropped).
class GroupGraph {
 public:
  GroupGraph(const CsrMatrix& a, const std::vector<index_t>& bucket) : a_(a), bucket_(bucket), degree_(a.rows, 0) {
#pragma omp parallel for schedule(static)
    for (index_t v = 0; v < a.rows; ++v) for_each_neighbor(v, [&](index_t) { ++degree_[v]; });
  }
  template <class F>
  void for_each_neighbor(index_t v, F&& f) const {
    for (index_t p = a_.row_ptr[v]; p < a_.row_ptr[v + 1]; ++p) {
      const index_t u = a_.col[p];
      if (u != v && bucket_[u] == bucket_[v]) f(u);
    }
  }
  index_t degree(index_t v) const { return degree_[v]; }
  bool by_degree(index_t u, index_t v) const { return std::tie(degree_[u], u) < std::tie(degree_[v], v); }
  // The nodes [first, last), given in increasing order, sorted by degree: a stable counting sort,
  // so the order of by_degree in O(n + largest degree). `count` is scratch space.
  template <class It>
  std::vector<index_t> sorted_by_degree(It first, It last, std::vector<index_t>& count) const {
    index_t largest = 0;
    for (It v = first; v != last; ++v) largest = std::max(largest, degree_[*v]);
    count.assign(static_cast<std::size_t>(largest) + 2, 0);
    for (It v = first; v != last; ++v) ++count[static_cast<std::size_t>(degree_[*v]) + 1];
    for (std::size_t d = 1; d < count.size(); ++d) count[d] += count[d - 1];
    std::vector<index_t> sorted(static_cast<std::size_t>(last - first));
    for (It v = first; v != last; ++v) {
      if (v != first && *v <= *(v - 1)) throw Error("GroupGraph::sorted_by_degree: nodes not in increasing order");
      sorted[static_cast<std::size_t>(count[static_cast<std::size_t>(degree_[*v])]++)] = *v;
    }
    return sorted;
  }

 private:
  const CsrMatrix& a_;
  const std::vector<index_t>& bucket_;
  std::vector<index_t> degree_;
};

// Marks of the nodes reached by the current search; a new search bumps `current` instead of clearing.
struct SearchMarks {
  std::vector<index_t> stamp;
  index_t current = 0;
};

// Breadth-first search over nodes not yet placed.
struct Levels {
  std::vector<index_t> order;   // nodes in BFS order
  std::size_t last_begin = 0;   // first node of the deepest level in `order`
  index_t depth = 0;
};
Levels bfs_levels(const GroupGraph& g, index_t root, const std::vector<char>& placed, SearchMarks& marks) {
  const index_t mark = ++marks.current;
  std::vector<index_t>& stamp = marks.stamp;
  Levels lv;
  lv.order.push_back(root);
  stamp[root] = mark;
  std::size_t level_begin = 0;
  while (level_begin < lv.order.size()) {
    const std::size_t level_end = lv.order.size();
    lv.last_begin = level_begin;
    ++lv.depth;
    for (std::size_t i = level_begin; i < level_end; ++i)
      g.for_each_neighbor(lv.order[i], [&](index_t u) {
        if (!placed[u] && stamp[u] != mark) {
          stamp[u] = mark;
          lv.order.push_back(u);
        }
      });
    level_begin = level_end;
  }
  return lv;
}

// George-Liu: from `start`, jump to a minimum-degree node of the deepest level while that increases
// the eccentricity; the result is a pseudo-peripheral node, a good root for a narrow level structure.
index_t pseudo_peripheral(const GroupGraph& g, index_t start, const std::vector<char>& placed,
                          SearchMarks& marks) {
  index_t root = start;
  Levels lv = bfs_levels(g, root, placed, marks);
  for (;;) {
    const auto last = lv.order.begin() + static_cast<std::ptrdiff_t>(lv.last_begin);
    const index_t cand = *std::min_element(last, lv.order.end(), [&](index_t u, index_t v) { return g.by_degree(u, v); });
    Levels lc = bfs_levels(g, cand, placed, marks);
    if (lc.depth <= lv.depth) return root;
    root = cand;
    lv = std::move(lc);
  }
}

// Cuthill-McKee from `root`: BFS order, the children of each node visited by increasing degree.
void cuthill_mckee(const GroupGraph& g, index_t root, std::vector<char>& placed, std::vector<index_t>& out) {
  std::size_t head = out.size();
  out.push_back(root);
  placed[root] = 1;
  for (; head < out.size(); ++head) {
    const std::size_t children = out.size();
    g.for_each_neighbor(out[head], [&](index_t u) {
      if (!placed[u]) {
        placed[u] = 1;
        out.push_back(u);
      }
    });
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(children), out.end(),
              [&](index_t u, index_t v) { return g.by_degree(u, v); });
  }
}

// Rows sorted by (coarse group, decreasing length); bucket[r] numbers the distinct (group, length).
std::vector<index_t> sort_into_buckets(const CsrMatrix& a, const std::vector<index_t>* groups,
                                       std::vector<index_t>& bucket) {
  auto key = [&](index_t r) { return std::make_pair(groups ? (*groups)[r] : 0, -a.row_length(r)); };
  std::vector<index_t> rows(static_cast<std::size_t>(a.rows));
  std::iota(rows.begin(), rows.end(), 0);
  std::stable_sort(rows.begin(), rows.end(), [&](index_t u, index_t v) { return key(u) < key(v); });
  bucket.assign(rows.size(), 0);
  for (std::size_t i = 1; i < rows.size(); ++i)
    bucket[rows[i]] = bucket[rows[i - 1]] + (key(rows[i]) != key(rows[i - 1]) ? 1 : 0);
  return rows;
}

}  // namespace

Permutation row_grouping_rcm(const CsrMatrix& a, const std::vector<index_t>* groups) {
  if (a.rows != a.cols)
    throw Error("row_grouping_rcm: the matrix is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                ", reordering needs a square one");
  if (groups && groups->size() != static_cast<std::size_t>(a.rows))
    throw Error("row_grouping_rcm: " + std::to_string(groups->size()) + " group labels for " +
                std::to_string(a.rows) + " rows");
  std::vector<index_t> bucket;
  const std::vector<index_t> sorted = sort_into_buckets(a, groups, bucket);
  const GroupGraph graph(a, bucket);
  std::vector<index_t> seed_count;  // the counting sort's, reused from one bucket to the next
  std::vector<char> placed(sorted.size(), 0);
  SearchMarks marks{std::vector<index_t>(sorted.size(), 0)};
  std::vector<index_t> new_to_old;
  new_to_old.reserve(sorted.size());
  for (std::size_t begin = 0; begin < sorted.size();) {
    std::size_t end = begin;
    while (end < sorted.size() && bucket[sorted[end]] == bucket[sorted[begin]]) ++end;
    // Components start from their minimum-degree node, so seeds are tried in that order.
    const std::vector<index_t> seeds = graph.sorted_by_degree(sorted.begin() + static_cast<std::ptrdiff_t>(begin),
                                                              sorted.begin() + static_cast<std::ptrdiff_t>(end), seed_count);
    const std::size_t group_begin = new_to_old.size();
    for (index_t seed : seeds)
      if (!placed[seed]) cuthill_mckee(graph, pseudo_peripheral(graph, seed, placed, marks), placed, new_to_old);
    std::reverse(new_to_old.begin() + static_cast<std::ptrdiff_t>(group_begin), new_to_old.end());
    begin = end;
  }
  return Permutation::from_new_to_old(std::move(new_to_old));
}

CsrMatrix permute(const CsrMatrix& a, const Permutation& rows, const Permutation& cols) {
  if (rows.size() != a.rows || cols.size() != a.cols)
    throw Error("permute: permutations of sizes " + std::to_string(rows.size()) + " and " +
                std::to_string(cols.size()) + " for a " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                " matrix");
  // Row r is the old row rows.new_to_old[r] with its columns renumbered and sorted again (they stay
  // unique: nothing merges). The arrays are sized by different threads at once, the offsets summed
  // in blocks and the rows filled in place, all in parallel.
  CsrMatrix b;
  b.rows = a.rows;
  b.cols = a.cols;
  std::vector<index_t> block_sum(static_cast<std::size_t>(omp_get_max_threads()) + 1, 0);
  ParallelExceptions errors;  // the arrays' and the scratch row's allocations
#pragma omp parallel num_threads(static_cast<int>(block_sum.size() - 1))
  {
    resize_entries_in_team(b, a.col.size(), errors);
    if (!errors.failed()) {
#pragma omp for schedule(static)
      for (index_t r = 0; r < a.rows; ++r) b.row_ptr[r + 1] = a.row_length(rows.new_to_old[r]);
      lengths_to_offsets_in_team(b.row_ptr, block_sum);
      std::vector<std::pair<index_t, double>> scratch;
#pragma omp for
      for (index_t r = 0; r < a.rows; ++r)
        errors.guard([&] {
          const index_t old = rows.new_to_old[r], begin = b.row_ptr[r];
          for (index_t p = a.row_ptr[old]; p < a.row_ptr[old + 1]; ++p) {
            b.col[begin + p - a.row_ptr[old]] = cols.old_to_new[a.col[p]];
            b.val[begin + p - a.row_ptr[old]] = a.val[p];
          }
          sort_and_merge_entries(b.col.data() + begin, b.val.data() + begin, b.row_length(r), scratch);
        });
    }
  }
  errors.rethrow();
  return b;
}

CsrMatrix permute_symmetric(const CsrMatrix& a, const Permutation& p) { return permute(a, p, p); }

std::vector<double> permute_vector(const std::vector<double>& x, const Permutation& p) {
  if (x.size() != p.new_to_old.size())
    throw Error("permute_vector: vector of " + std::to_string(x.size()) + " entries, permutation of " +
                std::to_string(p.size()));
  std::vector<double> y(x.size());
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < p.size(); ++i) y[i] = x[p.new_to_old[i]];
  return y;
}

std::vector<double> unpermute_vector(const std::vector<double>& y, const Permutation& p) {
  if (y.size() != p.new_to_old.size())
    throw Error("unpermute_vector: vector of " + std::to_string(y.size()) + " entries, permutation of " +
                std::to_string(p.size()));
  std::vector<double> x(y.size());
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < p.size(); ++i) x[p.new_to_old[i]] = y[i];
  return x;
}

}  // namespace miniapp
