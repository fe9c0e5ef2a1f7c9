#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "operators/sparse/reorder.hpp"
#include "tests/operators/matrix_generators.hpp"
#include "tests/thread_counts.hpp"

using namespace miniapp;

namespace {

index_t bandwidth(const CsrMatrix& a) {
  index_t b = 0;
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) b = std::max(b, std::abs(r - a.col[p]));
  return b;
}

Permutation random_permutation(index_t n, unsigned seed) {
  std::vector<index_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(seed));
  return Permutation::from_new_to_old(std::move(order));
}

void check_is_permutation(const Permutation& p, index_t n) {
  REQUIRE(p.size() == n);
  std::vector<int> seen(n, 0);
  for (index_t old : p.new_to_old) {
    REQUIRE((old >= 0 && old < n));
    ++seen[old];
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
  for (index_t i = 0; i < n; ++i) CHECK(p.old_to_new[p.new_to_old[i]] == i);
}

}  // namespace

TEST_CASE("Permutation::from_new_to_old rejects repeated or out-of-range indices", "[reorder]") {
  CHECK_THROWS_AS(Permutation::from_new_to_old({0, 0, 1}), Error);
  CHECK_THROWS_AS(Permutation::from_new_to_old({0, 3, 1}), Error);
  check_is_permutation(Permutation::identity(5), 5);
  // Large enough for the threads' checks: the message names the first entry in order that repeats.
  std::vector<index_t> repeated(100000);
  std::iota(repeated.begin(), repeated.end(), 0);
  repeated[70000] = 5;
  CHECK_THROWS_WITH(Permutation::from_new_to_old(repeated), Catch::Contains("entry 70000 maps to old index 5"));
  repeated[70000] = -2;
  CHECK_THROWS_WITH(Permutation::from_new_to_old(repeated), Catch::Contains("entry 70000 maps to old index -2"));
  std::vector<index_t> reversed(100000);
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  check_is_permutation(Permutation::from_new_to_old(reversed), 100000);
}

TEST_CASE("row_grouping_rcm groups rows by length, longest first", "[reorder]") {
  const CsrMatrix grid = test::laplacian_3d(6, 5, 4);  // rows of 4 to 7 entries
  const Permutation p = row_grouping_rcm(grid);
  check_is_permutation(p, grid.rows);
  const CsrMatrix b = permute_symmetric(grid, p);
  for (index_t r = 1; r < b.rows; ++r) CHECK(b.row_length(r - 1) >= b.row_length(r));
}

TEST_CASE("row_grouping_rcm orders by the coarse groups first", "[reorder]") {
  const CsrMatrix grid = test::laplacian_3d(5, 5, 5);
  std::vector<index_t> groups(grid.rows);
  std::mt19937 gen(3);
  for (index_t& g : groups) g = static_cast<index_t>(gen() % 3);
  const Permutation p = row_grouping_rcm(grid, &groups);
  check_is_permutation(p, grid.rows);
  for (index_t i = 1; i < grid.rows; ++i) {
    const index_t prev = p.new_to_old[i - 1], cur = p.new_to_old[i];
    CHECK(groups[prev] <= groups[cur]);
    if (groups[prev] == groups[cur]) CHECK(grid.row_length(prev) >= grid.row_length(cur));
  }
  // Labels far apart (too many keys for the counting sort: the stable sort instead) order the same.
  std::vector<index_t> spread(groups);
  for (index_t& g : spread) g = g * 100000 - 7;
  CHECK(row_grouping_rcm(grid, &spread).new_to_old == p.new_to_old);
  groups.pop_back();
  CHECK_THROWS_AS(row_grouping_rcm(grid, &groups), Error);
}

TEST_CASE("row_grouping groups rows by length and keeps their order inside each group", "[reorder]") {
  const CsrMatrix grid = test::laplacian_3d(6, 5, 4);  // rows of 4 to 7 entries, in lattice order
  const Permutation p = row_grouping(grid);
  check_is_permutation(p, grid.rows);
  for (index_t i = 1; i < grid.rows; ++i) {
    const index_t prev = p.new_to_old[i - 1], cur = p.new_to_old[i];
    CHECK(grid.row_length(prev) >= grid.row_length(cur));
    if (grid.row_length(prev) == grid.row_length(cur)) CHECK(prev < cur);
  }
  // The interior rows (7 entries) come first: (6 − 2)(5 − 2)(4 − 2) of them.
  CHECK(grid.row_length(p.new_to_old[23]) == 7);
  CHECK(grid.row_length(p.new_to_old[24]) == 6);
  const CsrMatrix wide = csr_from_triplets(2, 3, {{0, 0, 1.0}, {1, 2, 1.0}});
  CHECK_THROWS_AS(row_grouping(wide), Error);
}

TEST_CASE("row_grouping_rcm reduces the bandwidth of a shuffled grid", "[reorder]") {
  // Periodic: every row has 7 entries, so there is one group and the result is plain RCM. A block
  // diagonal of two grids checks that every component gets numbered.
  const CsrMatrix grid = test::laplacian_3d(12, 10, 8, true);
  const CsrMatrix shuffled = permute_symmetric(grid, random_permutation(grid.rows, 5));
  const CsrMatrix ordered = permute_symmetric(shuffled, row_grouping_rcm(shuffled));
  INFO("bandwidth shuffled " << bandwidth(shuffled) << ", reordered " << bandwidth(ordered));
  CHECK(bandwidth(shuffled) > grid.rows / 2);
  CHECK(bandwidth(ordered) < grid.rows / 4);

  std::vector<Triplet> t;
  for (index_t r = 0; r < shuffled.rows; ++r)
    for (index_t p = shuffled.row_ptr[r]; p < shuffled.row_ptr[r + 1]; ++p) {
      t.push_back({r, shuffled.col[p], shuffled.val[p]});
      t.push_back({r + shuffled.rows, shuffled.col[p] + shuffled.rows, shuffled.val[p]});
    }
  const CsrMatrix two = csr_from_triplets(2 * grid.rows, 2 * grid.rows, std::move(t));
  const Permutation p2 = row_grouping_rcm(two);
  check_is_permutation(p2, two.rows);
  CHECK(bandwidth(permute_symmetric(two, p2)) < grid.rows / 4);
}

TEST_CASE("row_grouping_rcm is Cuthill-McKee reversed, the same on 1 and 3 threads", "[reorder]") {
  // A periodic grid: every row has the same length, so one bucket; 60³ gives breadth-first levels of
  // several thousand nodes, which are expanded by a team.
  const CsrMatrix grid = test::laplacian_3d(60, 60, 60, true);
  const CsrMatrix shuffled = permute_symmetric(grid, random_permutation(grid.rows, 4));
  const auto [one, three] = test::on_one_and_three_threads([&] { return row_grouping_rcm(shuffled).new_to_old; });
  CHECK(one == three);
  // In Cuthill-McKee order each node's parent is its earliest neighbour; parents never go back, and
  // the children of one parent follow one another by (degree, index).
  const auto is_cuthill_mckee = [&](const std::vector<index_t>& reversed) {
    const std::vector<index_t> order(reversed.rbegin(), reversed.rend());
    std::vector<index_t> position(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) position[order[k]] = static_cast<index_t>(k);
    const auto parent = [&](index_t v) {
      index_t first = position[v];
      for (index_t p = shuffled.row_ptr[v]; p < shuffled.row_ptr[v + 1]; ++p)
        first = std::min(first, position[shuffled.col[p]]);
      return first;
    };
    const auto key = [&](index_t v) { return std::make_pair(shuffled.row_length(v), v); };
    bool ok = parent(order[0]) == 0;
    for (std::size_t k = 1; k + 1 < order.size(); ++k) {
      const index_t u = order[k], v = order[k + 1];
      ok = ok && parent(u) < static_cast<index_t>(k) && parent(u) <= parent(v) &&
           (parent(u) < parent(v) || key(u) < key(v));
    }
    return ok;
  };
  CHECK(is_cuthill_mckee(one));
  CHECK(is_cuthill_mckee(three));
}

TEST_CASE("reordering leaves SpMV results unchanged: P A Pᵀ (P x) = P (A x)", "[reorder]") {
  const CsrMatrix a = test::laplacian_3d(7, 6, 5);
  const CsrMatrix shuffled = permute_symmetric(a, random_permutation(a.rows, 9));
  const Permutation p = row_grouping_rcm(shuffled);
  const std::vector<double> x = test::random_vector(a.rows, 10);
  const std::vector<double> lhs = reference_spmv(permute_symmetric(shuffled, p), permute_vector(x, p));
  const std::vector<double> rhs = permute_vector(reference_spmv(shuffled, x), p);
  for (index_t i = 0; i < a.rows; ++i) CHECK(lhs[i] == Approx(rhs[i]).margin(1e-13));
  CHECK(unpermute_vector(permute_vector(x, p), p) == x);
}

TEST_CASE("permute renumbers rows and columns of a rectangular matrix", "[reorder]") {
  const CsrMatrix a = test::random_csr(6, 9, 4, 12);
  const Permutation rows = random_permutation(6, 1), cols = random_permutation(9, 2);
  const auto da = test::to_dense(a), db = test::to_dense(permute(a, rows, cols));
  for (index_t i = 0; i < 6; ++i)
    for (index_t j = 0; j < 9; ++j) CHECK(db[i][j] == da[rows.new_to_old[i]][cols.new_to_old[j]]);
  CHECK_THROWS_AS(permute(a, cols, rows), Error);
  CHECK_THROWS_AS(row_grouping_rcm(a), Error);
}

TEST_CASE("permute_rows and permute_columns renumber one side only", "[reorder]") {
  const CsrMatrix a = test::random_csr(60, 90, 6, 13);
  const Permutation rows = random_permutation(60, 3), cols = random_permutation(90, 4);
  const CsrMatrix by_rows = permute_rows(a, rows), by_cols = permute_columns(a, cols);
  const auto da = test::to_dense(a), dr = test::to_dense(by_rows), dc = test::to_dense(by_cols);
  for (index_t i = 0; i < 60; ++i)
    for (index_t j = 0; j < 90; ++j) {
      CHECK(dr[i][j] == da[rows.new_to_old[i]][j]);
      CHECK(dc[i][j] == da[i][cols.new_to_old[j]]);
    }
  for (const CsrMatrix* m : {&by_rows, &by_cols})
    for (index_t r = 0; r < m->rows; ++r)
      for (index_t p = m->row_ptr[r] + 1; p < m->row_ptr[r + 1]; ++p) CHECK(m->col[p - 1] < m->col[p]);
  CHECK_THROWS_AS(permute_rows(a, cols), Error);
  CHECK_THROWS_AS(permute_columns(a, rows), Error);
}
