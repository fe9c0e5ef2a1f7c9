#include <catch2/catch.hpp>
#include <omp.h>

#include "operators/sparse/csr_matrix.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;
using test::to_dense;

TEST_CASE("csr_from_triplets sums duplicates and sorts columns", "[csr]") {
  const CsrMatrix a = csr_from_triplets(3, 4, {{1, 3, 1.0}, {0, 2, 2.0}, {1, 0, 3.0}, {1, 3, 4.0}, {0, 1, 5.0}});
  CHECK(a.row_ptr == std::vector<index_t>{0, 2, 4, 4});
  CHECK(a.col == std::vector<index_t>{1, 2, 0, 3});
  CHECK(a.val == std::vector<double>{5.0, 2.0, 3.0, 5.0});
  CHECK(a.row_length(2) == 0);
}

TEST_CASE("csr_from_triplets rejects an entry outside the matrix", "[csr]") {
  CHECK_THROWS_AS(csr_from_triplets(2, 2, {{0, 2, 1.0}}), Error);
  CHECK_THROWS_AS(csr_from_triplets(2, 2, {{-1, 0, 1.0}}), Error);
}

TEST_CASE("transpose matches the dense transpose", "[csr]") {
  const CsrMatrix a = test::random_csr(9, 6, 4, 11);
  const CsrMatrix t = transpose(a);
  REQUIRE(t.rows == 6);
  REQUIRE(t.cols == 9);
  const auto da = to_dense(a), dt = to_dense(t);
  for (index_t i = 0; i < 9; ++i)
    for (index_t j = 0; j < 6; ++j) CHECK(dt[j][i] == da[i][j]);
  for (index_t r = 0; r < t.rows; ++r)
    for (index_t p = t.row_ptr[r] + 1; p < t.row_ptr[r + 1]; ++p) CHECK(t.col[p - 1] < t.col[p]);
}

TEST_CASE("transpose is the same on any thread count", "[csr]") {
  // Few columns (per-thread column counts) and many columns with few entries (atomic slots, rows
  // sorted after) on 3 threads, against 1 thread's serial scatter.
  const bool many_columns = GENERATE(false, true);
  CAPTURE(many_columns);
  // Many columns: big enough that the threads fill the slots at the same time, out of row order.
  const CsrMatrix a = many_columns ? test::random_csr(20000, 200000, 3, 6) : test::random_csr(500, 40, 6, 5);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const CsrMatrix one = transpose(a);
  omp_set_num_threads(3);
  const CsrMatrix three = transpose(a);
  omp_set_num_threads(threads);
  CHECK(three.row_ptr == one.row_ptr);
  CHECK(three.col == one.col);
  CHECK(three.val == one.val);
  if (many_columns) return;  // one thread's scatter is checked against the dense transpose below
  const auto da = to_dense(a), dt = to_dense(three);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t j = 0; j < a.cols; ++j) REQUIRE(dt[j][i] == da[i][j]);
}

TEST_CASE("transpose_symmetric_pattern is transpose, bitwise, and has_symmetric_pattern tells which path it took", "[csr]") {
  // A symmetric pattern with unrelated values (its own path), and patterns without a mirror for some
  // entry, rectangular or square (transpose's), on 1 and 3 threads.
  const int threads = GENERATE(1, 3);
  CAPTURE(threads);
  const CsrMatrix one_sided = test::random_csr(200, 200, 5, 9);
  std::vector<Triplet> both_sides;
  unsigned value = 1;
  for (index_t r = 0; r < one_sided.rows; ++r)
    for (index_t p = one_sided.row_ptr[r]; p < one_sided.row_ptr[r + 1]; ++p) {
      both_sides.push_back({r, one_sided.col[p], 0.25 * value++});
      both_sides.push_back({one_sided.col[p], r, -0.5 * value++});
    }
  const CsrMatrix symmetric_pattern = csr_from_triplets(200, 200, both_sides);
  const CsrMatrix rectangular = test::random_csr(30, 50, 4, 10);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  for (const CsrMatrix* a : {&symmetric_pattern, &one_sided, &rectangular}) {
    const CsrMatrix fast = transpose_symmetric_pattern(*a), reference = transpose(*a);
    CHECK(fast.rows == reference.rows);
    CHECK(fast.cols == reference.cols);
    CHECK(fast.row_ptr == reference.row_ptr);
    CHECK(fast.col == reference.col);
    CHECK(fast.val == reference.val);
  }
  CHECK(same_pattern(transpose_symmetric_pattern(symmetric_pattern), symmetric_pattern));
  CHECK_FALSE(same_pattern(transpose(one_sided), one_sided));
  CHECK_FALSE(same_pattern(rectangular, transpose(rectangular)));
  CHECK(same_pattern(rectangular, absolute(rectangular)));
  CHECK(has_symmetric_pattern(symmetric_pattern));
  CHECK_FALSE(has_symmetric_pattern(one_sided));
  CHECK_FALSE(has_symmetric_pattern(rectangular));
  // The symmetric pattern less the mirror (j, i) of one off-diagonal entry (i, j).
  index_t i = 0, j = 0;
  for (index_t r = 0; r < one_sided.rows && i == j; ++r)
    for (index_t p = one_sided.row_ptr[r]; p < one_sided.row_ptr[r + 1] && i == j; ++p) i = r, j = one_sided.col[p];
  REQUIRE(i != j);
  std::vector<Triplet> one_mirror_less;
  for (const Triplet& t : both_sides)
    if (t.row != j || t.col != i) one_mirror_less.push_back(t);
  CHECK_FALSE(has_symmetric_pattern(csr_from_triplets(200, 200, one_mirror_less)));
  omp_set_num_threads(saved);
}

TEST_CASE("multiply matches the dense product", "[csr]") {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const CsrMatrix a = test::random_csr(7, 5, 4, seed);
    const CsrMatrix b = test::random_csr(5, 9, 5, seed + 100);
    const CsrMatrix c = multiply(a, b);
    REQUIRE(c.rows == 7);
    REQUIRE(c.cols == 9);
    const auto da = to_dense(a), db = to_dense(b), dc = to_dense(c);
    for (index_t i = 0; i < 7; ++i)
      for (index_t j = 0; j < 9; ++j) {
        double sum = 0;
        for (index_t k = 0; k < 5; ++k) sum += da[i][k] * db[k][j];
        CHECK(dc[i][j] == Approx(sum).margin(1e-14));
      }
    for (index_t r = 0; r < c.rows; ++r)
      for (index_t p = c.row_ptr[r] + 1; p < c.row_ptr[r + 1]; ++p) CHECK(c.col[p - 1] < c.col[p]);
  }
}

TEST_CASE("One product with interleaved columns, split, is each product bitwise", "[csr]") {
  // A [B_0 B_1 B_2] with B's columns interleaved: each part sums the same products in the same order
  // as A B_d (rows of up to 24 products, past multiply's linear search for a row's few columns).
  const int threads = GENERATE(1, 3);
  CAPTURE(threads);
  const CsrMatrix a = test::random_csr(300, 50, 6, 7);
  std::vector<CsrMatrix> b;
  std::vector<Triplet> interleaved_entries;
  for (index_t d = 0; d < 3; ++d) {
    b.push_back(test::random_csr(50, 40, 4, 20 + static_cast<unsigned>(d)));
    for (index_t r = 0; r < 50; ++r)
      for (index_t p = b[d].row_ptr[r]; p < b[d].row_ptr[r + 1]; ++p)
        interleaved_entries.push_back({r, 3 * b[d].col[p] + d, b[d].val[p]});
  }
  const CsrMatrix interleaved = csr_from_triplets(50, 120, interleaved_entries);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  const std::vector<CsrMatrix> products = split_interleaved_columns(multiply(a, interleaved), 3);
  const std::vector<CsrMatrix> factors = split_interleaved_columns(interleaved, 3);
  omp_set_num_threads(saved);
  REQUIRE(products.size() == 3);
  for (std::size_t d = 0; d < 3; ++d) {
    CAPTURE(d);
    const CsrMatrix alone = multiply(a, b[d]);
    CHECK(products[d].rows == 300);
    CHECK(products[d].cols == 40);
    CHECK(products[d].row_ptr == alone.row_ptr);
    CHECK(products[d].col == alone.col);
    CHECK(products[d].val == alone.val);
    CHECK(factors[d].row_ptr == b[d].row_ptr);
    CHECK(factors[d].col == b[d].col);
    CHECK(factors[d].val == b[d].val);
  }
  CHECK_THROWS_AS(split_interleaved_columns(test::random_csr(4, 5, 2, 1), 3), Error);
}

TEST_CASE("multiply rejects mismatched inner dimensions", "[csr]") {
  CHECK_THROWS_AS(multiply(test::random_csr(3, 4, 2, 1), test::random_csr(5, 3, 2, 2)), Error);
}

TEST_CASE("reference_spmv matches the dense product and checks x", "[csr]") {
  const CsrMatrix a = test::random_csr(8, 6, 4, 3);
  const std::vector<double> x = test::random_vector(6, 4);
  const std::vector<double> y = reference_spmv(a, x);
  const auto da = to_dense(a);
  for (index_t i = 0; i < 8; ++i) {
    double sum = 0;
    for (index_t j = 0; j < 6; ++j) sum += da[i][j] * x[j];
    CHECK(y[i] == Approx(sum).margin(1e-14));
  }
  CHECK_THROWS_AS(reference_spmv(a, std::vector<double>(5)), Error);
}
