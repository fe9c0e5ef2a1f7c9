#include "solvers/amg/galerkin.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "operators/sparse/csr_rows.hpp"

namespace miniapp::amg {

CsrMatrix sparse_product(const CsrMatrix& a, const CsrMatrix& b) {
  if (a.cols != b.rows)
    throw Error("sparse_product: inner dimensions differ (" + std::to_string(a.cols) + " and " +
                std::to_string(b.rows) + ")");
  return csr_from_rows(a.rows, b.cols, [&] {
    // Per thread: the sum of each column and the row that last touched it, and the row's columns.
    return [&a, &b, sum = std::vector<double>(static_cast<std::size_t>(b.cols)),
            owner = std::vector<index_t>(static_cast<std::size_t>(b.cols), -1),
            columns = std::vector<index_t>()](index_t i, RowEntries& out) mutable {
      columns.clear();
      for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
        const index_t k = a.col[p];
        for (index_t q = b.row_ptr[k]; q < b.row_ptr[k + 1]; ++q) {
          const index_t j = b.col[q];
          if (owner[j] != i) {
            owner[j] = i;
            sum[j] = 0.0;
            columns.push_back(j);
          }
          sum[j] += a.val[p] * b.val[q];
        }
      }
      std::sort(columns.begin(), columns.end());
      for (index_t j : columns) out.push(j, sum[j]);
    };
  });
}

CsrMatrix galerkin_product(const CsrMatrix& r, const CsrMatrix& a, const CsrMatrix& p) {
  return sparse_product(r, sparse_product(a, p));
}

}  // namespace miniapp::amg
