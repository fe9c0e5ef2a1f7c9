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
  // Per thread: for each column, the row that last touched it and its sum (side by side: one cache
  // line per product), and the row's columns.
  struct Accumulator {
    index_t owner;
    double sum;
  };
  return csr_from_rows(a.rows, b.cols, [&] {
    return [&a, &b, acc = std::vector<Accumulator>(static_cast<std::size_t>(b.cols), {-1, 0.0}),
            columns = std::vector<index_t>()](index_t i, RowEntries& out) mutable {
      columns.clear();
      for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
        const index_t k = a.col[p];
        const double a_ik = a.val[p];
        for (index_t q = b.row_ptr[k]; q < b.row_ptr[k + 1]; ++q) {
          Accumulator& c = acc[b.col[q]];
          if (c.owner != i) {
            c = {i, 0.0};
            columns.push_back(b.col[q]);
          }
          c.sum += a_ik * b.val[q];
        }
      }
      std::sort(columns.begin(), columns.end());
      for (index_t j : columns) out.push(j, acc[j].sum);
    };
  });
}

CsrMatrix galerkin_product(const CsrMatrix& r, const CsrMatrix& a, const CsrMatrix& p) {
  return sparse_product(r, sparse_product(a, p));
}

}  // namespace miniapp::amg
