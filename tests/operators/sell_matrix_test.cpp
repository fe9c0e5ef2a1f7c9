#include <catch2/catch.hpp>

#include <algorithm>

#include "operators/sparse/sell_matrix.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

TEST_CASE("to_csr(to_sell(A)) gives A back, explicit zeros included", "[sell]") {
  CsrMatrix a = test::random_csr(45, 30, 6, 7);
  a.val[0] = 0.0;  // a stored zero is structure, not padding
  for (index_t s : {1, 4, 32}) {
    const CsrMatrix b = to_csr(to_sell(a, s));
    CHECK(b.rows == a.rows);
    CHECK(b.cols == a.cols);
    CHECK(b.row_ptr == a.row_ptr);
    CHECK(b.col == a.col);
    CHECK(b.val == a.val);
  }
}

TEST_CASE("sELL positions follow eq. 2.14 and slices are as wide as their longest row", "[sell]") {
  const CsrMatrix a = test::random_csr(23, 23, 5, 8);  // 23 rows: the last slice of 4 is partial
  const index_t S = 4;
  const SellMatrix s = to_sell(a, S);
  REQUIRE(s.slice_count() == 6);
  CHECK(s.nnz == a.nnz());
  index_t offset = 0;  // Σ_{l < slice} K_l · S
  for (index_t l = 0; l < s.slice_count(); ++l) {
    index_t width = 0;
    for (index_t r = l * S; r < std::min((l + 1) * S, a.rows); ++r) width = std::max(width, a.row_length(r));
    CHECK(s.slice_width(l) == width);
    for (index_t r = l * S; r < std::min((l + 1) * S, a.rows); ++r)
      for (index_t k = 0; k < a.row_length(r); ++k) {
        const index_t ind = r % S + k * S + offset;
        CHECK(s.position(r, k) == ind);
        CHECK(s.col[ind] == a.col[a.row_ptr[r] + k]);
        CHECK(s.val[ind] == a.val[a.row_ptr[r] + k]);
      }
    offset += width * S;
  }
  CHECK(s.stored_entries() == offset);
  // The count without the conversion (memory estimates) is the one the conversion stores.
  CHECK(sell_stored_entries(a, S) == static_cast<std::size_t>(offset));
}

TEST_CASE("sell_layout is to_sell's layout without its entries", "[sell]") {
  const CsrMatrix a = test::random_csr(37, 29, 7, 3);
  for (index_t h : {1, 4, 32}) {
    const SellLayout layout = sell_layout(a, h);
    const SellMatrix full = to_sell(a, h);
    CHECK(layout.rows == full.rows);
    CHECK(layout.cols == full.cols);
    CHECK(layout.slice_height == h);
    CHECK(layout.slice_ptr == full.slice_ptr);
    CHECK(layout.row_length == full.row_length);
    CHECK(layout.stored_entries() == static_cast<index_t>(full.col.size()));
  }
}

TEST_CASE("sell_stored_entries counts each slice's padding, for any slice height", "[sell]") {
  const CsrMatrix a = test::random_csr(37, 29, 7, 3);
  for (index_t h : {1, 2, 5, 8, 32, 64})
    CHECK(sell_stored_entries(a, h) == static_cast<std::size_t>(to_sell(a, h).stored_entries()));
  // A matrix without rows stores nothing; a slice height below 1 is refused as to_sell refuses it.
  CHECK(sell_stored_entries(csr_from_triplets(0, 4, {}), 8) == 0);
  CHECK_THROWS_AS(sell_stored_entries(a, 0), Error);
}

TEST_CASE("sell_device_bytes of row lengths alone is that of the matrix with those rows", "[sell]") {
  const CsrMatrix a = test::random_csr(37, 29, 7, 3);
  std::vector<index_t> lengths(static_cast<std::size_t>(a.rows));
  for (index_t r = 0; r < a.rows; ++r) lengths[r] = a.row_length(r);
  for (index_t h : {1, 2, 5, 8, 32, 64})
    for (bool float_values : {false, true}) {
      const std::size_t bytes = sell_device_bytes(a, h, float_values);
      CHECK(sell_device_bytes(lengths, h, float_values) == bytes);
      CHECK(bytes == sizeof(index_t) * static_cast<std::size_t>((a.rows + h - 1) / h + 1) +
                         (sizeof(index_t) + (float_values ? sizeof(float) : sizeof(double))) *
                             static_cast<std::size_t>(to_sell(a, h).stored_entries()));
    }
  CHECK_THROWS_AS(sell_device_bytes(lengths, 0, false), Error);
}

TEST_CASE("sELL padding is zero and repeats a valid column", "[sell]") {
  // Row 0 has two entries, row 1 is empty, row 2 has one: slice height 4 pads everything to width 2.
  const CsrMatrix a = csr_from_triplets(3, 3, {{0, 0, 1.0}, {0, 2, 2.0}, {2, 1, 3.0}});
  const SellMatrix s = to_sell(a, 4);
  REQUIRE(s.stored_entries() == 8);
  CHECK(s.val[s.position(1, 0)] == 0.0);
  CHECK(s.col[s.position(1, 0)] == 1);  // empty row: its own index
  CHECK(s.col[s.position(1, 1)] == 1);
  CHECK(s.val[s.position(2, 1)] == 0.0);
  CHECK(s.col[s.position(2, 1)] == 1);  // repeats the last valid column
  CHECK(s.col[s.position(3, 0)] == 2);  // padding row past the end stays inside the columns
  for (index_t c : s.col) CHECK((c >= 0 && c < a.cols));
}

TEST_CASE("to_sell rejects a slice height below 1", "[sell]") {
  CHECK_THROWS_AS(to_sell(test::random_csr(4, 4, 2, 1), 0), Error);
}
