#include "solvers/amg/galerkin.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <string>

#include "core/error.hpp"
#include "operators/sparse/csr_rows.hpp"

namespace miniapp::amg {

CsrMatrix sparse_product(const CsrMatrix& a, const CsrMatrix& b, RowBlocks* reuse) {
  if (a.cols != b.rows)
    throw Error("sparse_product: inner dimensions differ (" + std::to_string(a.cols) + " and " +
                std::to_string(b.rows) + ")");
  // Per thread: for each column, the row that last touched it and its sum (side by side: one cache
  // line per product), and the row's columns (room for all of b's and one more: each product writes
  // its column there before the test whether it is new).
  struct Accumulator {
    index_t owner;
    double sum;
  };
  return csr_from_rows(a.rows, b.cols, [&] {
    return [&a, &b, acc = std::vector<Accumulator>(static_cast<std::size_t>(b.cols), {-1, 0.0}),
            columns = std::vector<index_t>(static_cast<std::size_t>(b.cols) + 1)](index_t i, RowEntries& out) mutable {
      // Without branches: whether a column is new to the row is as good as random, and mispredicted
      // branches took most of the time. A new column's sum starts from +0.0 (its bits masked to zero),
      // as 0.0 + x, so the sums stay those of miniapp::multiply bit for bit.
      std::size_t count = 0;
      for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
        const index_t k = a.col[p];
        const double a_ik = a.val[p];
        for (index_t q = b.row_ptr[k]; q < b.row_ptr[k + 1]; ++q) {
          const index_t j = b.col[q];
          Accumulator& c = acc[j];
          const std::uint64_t keep = c.owner == i ? ~std::uint64_t{0} : 0;
          columns[count] = j;
          count += keep == 0;
          c.sum = std::bit_cast<double>(std::bit_cast<std::uint64_t>(c.sum) & keep) + a_ik * b.val[q];
          c.owner = i;
        }
      }
      const auto row_columns = std::span(columns).first(count);
      std::sort(row_columns.begin(), row_columns.end());
      for (index_t j : row_columns) out.push(j, acc[j].sum);
    };
  }, reuse);
}

CsrMatrix galerkin_product(const CsrMatrix& r, const CsrMatrix& a, const CsrMatrix& p, RowBlocks* reuse) {
  return sparse_product(r, sparse_product(a, p, reuse), reuse);
}

}  // namespace miniapp::amg
