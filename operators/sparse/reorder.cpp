#include "operators/sparse/reorder.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
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

// In parallel: every index in range, the inverse scattered, then each entry checked to be its own
// inverse's (a repeated index leaves one of its entries unmatched); only a failed check runs the
// serial loop, for the message naming the first entry in order that is out of range or repeated.
Permutation Permutation::from_new_to_old(std::vector<index_t> new_to_old) {
  const index_t n = checked_index(new_to_old.size(), "Permutation");
  std::vector<index_t> old_to_new(static_cast<std::size_t>(n));
  bool valid = true;
#pragma omp parallel for schedule(static) reduction(&& : valid)
  for (index_t i = 0; i < n; ++i) valid = valid && new_to_old[i] >= 0 && new_to_old[i] < n;
  if (valid) {
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < n; ++i) old_to_new[new_to_old[i]] = i;
#pragma omp parallel for schedule(static) reduction(&& : valid)
    for (index_t i = 0; i < n; ++i) valid = valid && old_to_new[new_to_old[i]] == i;
  }
  if (!valid) {
    std::fill(old_to_new.begin(), old_to_new.end(), -1);
    for (index_t i = 0; i < n; ++i) {
      const index_t old = new_to_old[i];
      if (old < 0 || old >= n || old_to_new[old] != -1)
        throw Error("Permutation: entry " + std::to_string(i) + " maps to old index " + std::to_string(old) +
                    ", which is out of [0, " + std::to_string(n) + ") or already taken");
      old_to_new[old] = i;
    }
  }
  return Permutation{std::move(new_to_old), std::move(old_to_new)};
}

namespace {

// The adjacency graph of a square matrix restricted to rows of the same bucket (self loops dropped),
// stored apart from the matrix: the searches read each node's neighbours many times.
class GroupGraph {
 public:
  GroupGraph(const CsrMatrix& a, const std::vector<index_t>& bucket)
      : first_(static_cast<std::size_t>(a.rows) + 1, 0), degree_(static_cast<std::size_t>(a.rows), 0) {
    const auto neighbours_in_matrix = [&](index_t v, auto&& f) {
      for (index_t p = a.row_ptr[v]; p < a.row_ptr[v + 1]; ++p)
        if (const index_t u = a.col[p]; u != v && bucket[u] == bucket[v]) f(u);
    };
#pragma omp parallel for schedule(static)
    for (index_t v = 0; v < a.rows; ++v) neighbours_in_matrix(v, [&](index_t) { ++degree_[v]; });
    std::partial_sum(degree_.begin(), degree_.end(), first_.begin() + 1);
    neighbour_.resize(static_cast<std::size_t>(first_.back()));
#pragma omp parallel for schedule(static)
    for (index_t v = 0; v < a.rows; ++v) {
      index_t next = first_[v];
      neighbours_in_matrix(v, [&](index_t u) { neighbour_[next++] = u; });
    }
  }
  template <class F>
  void for_each_neighbor(index_t v, F&& f) const {
    for (index_t p = first_[v]; p < first_[v + 1]; ++p) f(neighbour_[p]);
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
  std::vector<index_t> first_, neighbour_;  // CSR: node v's neighbours neighbour_[first_[v], first_[v + 1])
  std::vector<index_t> degree_;
};

// Breadth-first levels, each built in parallel from the one before and in the order Cuthill-McKee
// visits its nodes serially, whatever the thread count: a node of the next level is the child of
// the first node of this level (in the level's order) adjacent to it, and each node's children
// follow one another by increasing degree (by_degree). `parent[u]` holds the position in `order` of
// u's parent while a search runs (`unreached` before it reaches u, and no node reached is reached
// again: the positions of earlier levels are below those of the level being expanded).
class LevelExpansion {
 public:
  static constexpr index_t unreached = std::numeric_limits<index_t>::max();

  LevelExpansion(const GroupGraph& g, index_t nodes)
      : g_(g), parent_(static_cast<std::size_t>(nodes), unreached), found_(static_cast<std::size_t>(omp_get_max_threads())) {}

  // Starts a search at `root`, appended to `order`.
  void start(index_t root, std::vector<index_t>& order) {
    parent_[root] = -1;
    order.push_back(root);
  }

  // Appends to `order` the level after order[begin, end): the nodes adjacent to it not yet reached
  // and not `placed`, each node's children by degree when `by_degree` (else as the graph lists them;
  // the same set). Returns the new level's end.
  std::size_t expand(std::vector<index_t>& order, std::size_t begin, std::size_t end,
                     const std::vector<char>& placed, bool by_degree) {
    const auto level = static_cast<std::ptrdiff_t>(end - begin);
    if (level <= serial_level) {
      expand_serially(order, begin, end, placed, by_degree);
      return order.size();
    }
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < level; ++i) {
      const auto position = static_cast<index_t>(begin) + static_cast<index_t>(i);
      g_.for_each_neighbor(order[static_cast<std::size_t>(position)], [&](index_t u) {
        if (!placed[u]) lower_to(parent_[u], position);
      });
    }
    // Each thread gathers the children of a block of the level, and the blocks follow one another.
    int threads = 1;
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
      if (t == 0) threads = omp_get_num_threads();
      const std::size_t first = begin + static_cast<std::size_t>(level * t / omp_get_num_threads());
      const std::size_t last = begin + static_cast<std::size_t>(level * (t + 1) / omp_get_num_threads());
      gather_children(order, first, last, by_degree, found_[static_cast<std::size_t>(t)]);
    }
    for (int t = 0; t < threads; ++t) order.insert(order.end(), found_[t].begin(), found_[t].end());
    return order.size();
  }

  // Ends the search whose nodes are `order[begin, end)`, so that the next one may reach them again.
  void finish(const std::vector<index_t>& order, std::size_t begin, std::size_t end) {
    for_each_position(begin, end, [&](std::size_t i) { parent_[order[i]] = unreached; });
  }

  // f(i) for i in [begin, end), on a team when there are enough of them (the searches of small
  // components would otherwise mostly start teams).
  template <class F>
  static void for_each_position(std::size_t begin, std::size_t end, F&& f) {
    if (static_cast<std::ptrdiff_t>(end - begin) <= serial_level) {
      for (std::size_t i = begin; i < end; ++i) f(i);
      return;
    }
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(begin); i < static_cast<std::ptrdiff_t>(end); ++i)
      f(static_cast<std::size_t>(i));
  }

 private:
  // Below this many nodes a level is expanded on one thread (the same result, without a team's start).
  static constexpr std::ptrdiff_t serial_level = 2048;

  // On one thread: the whole level, parents and children at once, the children appended to `order`.
  void expand_serially(std::vector<index_t>& order, std::size_t begin, std::size_t end,
                       const std::vector<char>& placed, bool by_degree) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t children = order.size();
      g_.for_each_neighbor(order[i], [&](index_t u) {
        if (placed[u] || parent_[u] != unreached) return;
        parent_[u] = static_cast<index_t>(i);
        order.push_back(u);
      });
      if (by_degree) sort_by_degree(order.begin() + static_cast<std::ptrdiff_t>(children), order.end());
    }
  }

  // The children of order[first, last), whose parents are set, in order.
  void gather_children(const std::vector<index_t>& order, std::size_t first, std::size_t last, bool by_degree,
                       std::vector<index_t>& found) const {
    found.clear();
    for (std::size_t i = first; i < last; ++i) {
      const std::size_t children = found.size();
      g_.for_each_neighbor(order[i], [&](index_t u) {
        if (parent_[u] == static_cast<index_t>(i)) found.push_back(u);
      });
      if (by_degree) sort_by_degree(found.begin() + static_cast<std::ptrdiff_t>(children), found.end());
    }
  }

  template <class It>
  void sort_by_degree(It first, It last) const {
    std::sort(first, last, [&](index_t u, index_t v) { return g_.by_degree(u, v); });
  }

  static void lower_to(index_t& slot, index_t value) {
    std::atomic_ref<index_t> a(slot);
    index_t current = a.load(std::memory_order_relaxed);
    while (value < current && !a.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
    }
  }

  const GroupGraph& g_;
  std::vector<index_t> parent_;
  std::vector<std::vector<index_t>> found_;  // per thread: the children it gathered
};

// George-Liu: from `start`, jump to a minimum-degree node of the deepest level while that increases
// the eccentricity; the result is a pseudo-peripheral node, a good root for a narrow level structure.
// `order` is scratch space.
index_t pseudo_peripheral(const GroupGraph& g, index_t start, const std::vector<char>& placed,
                          LevelExpansion& levels, std::vector<index_t>& order) {
  struct Search {
    index_t depth = 0;
    index_t deepest_min = 0;  // the deepest level's first node by degree
  };
  const auto search = [&](index_t root) {
    order.clear();
    levels.start(root, order);
    Search s;
    std::size_t begin = 0, end = 1;
    for (;;) {
      ++s.depth;
      const std::size_t next = levels.expand(order, begin, end, placed, false);
      if (next == end) break;
      begin = end, end = next;
    }
    s.deepest_min = *std::min_element(order.begin() + static_cast<std::ptrdiff_t>(begin),
                                      order.begin() + static_cast<std::ptrdiff_t>(end),
                                      [&](index_t u, index_t v) { return g.by_degree(u, v); });
    levels.finish(order, 0, order.size());
    return s;
  };
  index_t root = start;
  Search s = search(root);
  for (;;) {
    const index_t candidate = s.deepest_min;
    const Search c = search(candidate);
    if (c.depth <= s.depth) return root;
    root = candidate;
    s = c;
  }
}

// Cuthill-McKee from `root`: BFS order, the children of each node visited by increasing degree.
void cuthill_mckee(index_t root, std::vector<char>& placed, LevelExpansion& levels, std::vector<index_t>& out) {
  const std::size_t first = out.size();
  levels.start(root, out);
  for (std::size_t begin = first, end = out.size(); begin < end;) {
    const std::size_t next = levels.expand(out, begin, end, placed, true);
    begin = end, end = next;
  }
  LevelExpansion::for_each_position(first, out.size(), [&](std::size_t i) { placed[out[i]] = 1; });
  levels.finish(out, first, out.size());
}

// Rows sorted by (coarse group, decreasing length), stably; bucket[r] numbers the distinct (group,
// length) in that order. The keys are few (row lengths of a mesh operator, a handful of groups), so a
// counting sort in parallel: per thread and key the rows of its block, each thread's share of a key
// after those of the threads before it, which is the stable order. A range of keys too large for
// that (labels far apart) goes through a stable sort instead; the same result.
std::vector<index_t> sort_into_buckets(const CsrMatrix& a, const std::vector<index_t>* groups,
                                       std::vector<index_t>& bucket) {
  index_t lowest_group = 0, highest_group = 0, longest = 0;
  if (groups && !groups->empty())
    lowest_group = highest_group = groups->front();
#pragma omp parallel for schedule(static) reduction(min : lowest_group) reduction(max : highest_group, longest)
  for (index_t r = 0; r < a.rows; ++r) {
    if (groups) {
      lowest_group = std::min(lowest_group, (*groups)[r]);
      highest_group = std::max(highest_group, (*groups)[r]);
    }
    longest = std::max(longest, a.row_length(r));
  }
  // Key k orders as (group, −length): rows of a lower group first, longer rows first within one.
  const auto group_span = static_cast<std::int64_t>(highest_group) - lowest_group + 1;
  const std::int64_t lengths = static_cast<std::int64_t>(longest) + 1, keys = group_span * lengths;
  const auto key = [&](index_t r) {
    return static_cast<std::size_t>((groups ? (*groups)[r] - static_cast<std::int64_t>(lowest_group) : 0) * lengths +
                                    (longest - a.row_length(r)));
  };
  std::vector<index_t> rows(static_cast<std::size_t>(a.rows));
  bucket.assign(rows.size(), 0);
  const auto threads = static_cast<std::size_t>(omp_get_max_threads());
  if (keys > 4096 || static_cast<std::size_t>(keys) * threads > rows.size() + 4096) {
    std::iota(rows.begin(), rows.end(), 0);
    std::stable_sort(rows.begin(), rows.end(), [&](index_t u, index_t v) { return key(u) < key(v); });
    for (std::size_t i = 1; i < rows.size(); ++i)
      bucket[rows[i]] = bucket[rows[i - 1]] + (key(rows[i]) != key(rows[i - 1]) ? 1 : 0);
    return rows;
  }
  const auto k = static_cast<std::size_t>(keys);
  std::vector<index_t> slot(k * threads, 0);  // per (key, thread): a count, then the first position
  std::vector<index_t> key_bucket(k, 0);
#pragma omp parallel num_threads(static_cast<int>(threads))
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num()), n = static_cast<std::size_t>(omp_get_num_threads());
    const auto begin = static_cast<index_t>(rows.size() * t / n), end = static_cast<index_t>(rows.size() * (t + 1) / n);
    for (index_t r = begin; r < end; ++r) ++slot[key(r) * threads + t];
#pragma omp barrier
#pragma omp single
    {
      index_t position = 0, distinct = 0;
      for (std::size_t c = 0; c < k; ++c) {
        const index_t first = position;
        for (std::size_t b = 0; b < threads; ++b) position += std::exchange(slot[c * threads + b], position);
        key_bucket[c] = distinct;
        if (position > first) ++distinct;
      }
    }
    for (index_t r = begin; r < end; ++r) {
      const std::size_t c = key(r);
      rows[static_cast<std::size_t>(slot[c * threads + t]++)] = r;
      bucket[static_cast<std::size_t>(r)] = key_bucket[c];
    }
  }
  return rows;
}

void require_square_with_groups(const CsrMatrix& a, const std::vector<index_t>* groups, const char* caller) {
  if (a.rows != a.cols)
    throw Error(std::string(caller) + ": the matrix is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                ", reordering needs a square one");
  if (groups && groups->size() != static_cast<std::size_t>(a.rows))
    throw Error(std::string(caller) + ": " + std::to_string(groups->size()) + " group labels for " +
                std::to_string(a.rows) + " rows");
}

}  // namespace

Permutation row_grouping_rcm(const CsrMatrix& a, const std::vector<index_t>* groups) {
  require_square_with_groups(a, groups, "row_grouping_rcm");
  std::vector<index_t> bucket;
  const std::vector<index_t> sorted = sort_into_buckets(a, groups, bucket);
  const GroupGraph graph(a, bucket);
  std::vector<index_t> seed_count;  // the counting sort's, reused from one bucket to the next
  std::vector<char> placed(sorted.size(), 0);
  LevelExpansion levels(graph, a.rows);
  std::vector<index_t> search_order;
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
      if (!placed[seed])
        cuthill_mckee(pseudo_peripheral(graph, seed, placed, levels, search_order), placed, levels, new_to_old);
    std::reverse(new_to_old.begin() + static_cast<std::ptrdiff_t>(group_begin), new_to_old.end());
    begin = end;
  }
  return Permutation::from_new_to_old(std::move(new_to_old));
}

Permutation row_grouping(const CsrMatrix& a, const std::vector<index_t>* groups) {
  require_square_with_groups(a, groups, "row_grouping");
  std::vector<index_t> bucket;
  return Permutation::from_new_to_old(sort_into_buckets(a, groups, bucket));
}

Permutation cell_row_order(const CsrMatrix& a, bool cells_in_lattice_order, const std::vector<index_t>* groups) {
  return cells_in_lattice_order ? row_grouping(a, groups) : row_grouping_rcm(a, groups);
}

namespace {

// Row r of the result is the old row old_row(r) with its columns renumbered by new_col and sorted again
// (they stay unique: nothing merges). The arrays are sized by different threads at once, the offsets
// summed in blocks and the rows filled in place, all in parallel.
template <class OldRow, class NewCol>
CsrMatrix permuted(const CsrMatrix& a, OldRow old_row, NewCol new_col) {
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
      for (index_t r = 0; r < a.rows; ++r) b.row_ptr[r + 1] = a.row_length(old_row(r));
      lengths_to_offsets_in_team(b.row_ptr, block_sum);
      std::vector<std::pair<index_t, double>> scratch;
#pragma omp for
      for (index_t r = 0; r < a.rows; ++r)
        errors.guard([&] {
          const index_t old = old_row(r), begin = b.row_ptr[r];
          for (index_t p = a.row_ptr[old]; p < a.row_ptr[old + 1]; ++p) {
            b.col[begin + p - a.row_ptr[old]] = new_col(a.col[p]);
            b.val[begin + p - a.row_ptr[old]] = a.val[p];
          }
          sort_and_merge_entries(b.col.data() + begin, b.val.data() + begin, b.row_length(r), scratch);
        });
    }
  }
  errors.rethrow();
  return b;
}

void require_size(index_t permutation, index_t dimension, const char* what, const CsrMatrix& a) {
  if (permutation != dimension)
    throw Error(std::string("permute: a permutation of ") + std::to_string(permutation) + " " + what + " for a " +
                std::to_string(a.rows) + "x" + std::to_string(a.cols) + " matrix");
}

}  // namespace

CsrMatrix permute(const CsrMatrix& a, const Permutation& rows, const Permutation& cols) {
  require_size(rows.size(), a.rows, "rows", a);
  require_size(cols.size(), a.cols, "columns", a);
  return permuted(a, [&](index_t r) { return rows.new_to_old[r]; }, [&](index_t c) { return cols.old_to_new[c]; });
}

CsrMatrix permute_rows(const CsrMatrix& a, const Permutation& rows) {
  require_size(rows.size(), a.rows, "rows", a);
  return permuted(a, [&](index_t r) { return rows.new_to_old[r]; }, [](index_t c) { return c; });
}

CsrMatrix permute_columns(const CsrMatrix& a, const Permutation& cols) {
  require_size(cols.size(), a.cols, "columns", a);
  return permuted(a, [](index_t r) { return r; }, [&](index_t c) { return cols.old_to_new[c]; });
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
