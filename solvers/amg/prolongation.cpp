#include "solvers/amg/prolongation.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "solvers/amg/galerkin.hpp"

namespace miniapp::amg {

CsrMatrix tentative_prolongation(const Aggregates& aggregates) {
  CsrMatrix t;
  t.rows = static_cast<index_t>(aggregates.of_row.size());
  t.cols = aggregates.count;
  t.row_ptr.resize(static_cast<std::size_t>(t.rows) + 1);
  for (index_t i = 0; i <= t.rows; ++i) t.row_ptr[i] = i;
  t.col = aggregates.of_row;
  t.val.assign(aggregates.of_row.size(), 1.0);
  return t;
}

CsrMatrix smoothed_prolongation(const CsrMatrix& a, const std::vector<double>& d, double lambda_max,
                                const Aggregates& aggregates) {
  const double omega = 4.0 / (3.0 * lambda_max);
  CsrMatrix p = sparse_product(a, tentative_prolongation(aggregates));  // A T, then P = T − ω D⁻¹ (A T) in place
  for (index_t i = 0; i < p.rows; ++i) {
    const auto first = p.col.begin() + p.row_ptr[i], last = p.col.begin() + p.row_ptr[i + 1];
    for (auto k = p.row_ptr[i]; k < p.row_ptr[i + 1]; ++k) p.val[k] *= -omega / d[i];
    // (A T)_i,agg(i) holds a_ii: the product keeps it as an entry even where it sums to zero.
    const auto own = std::lower_bound(first, last, aggregates.of_row[i]);
    if (own == last || *own != aggregates.of_row[i])
      throw Error("smoothed_prolongation: row " + std::to_string(i) + " of A T lacks its own aggregate's column");
    p.val[own - p.col.begin()] += 1.0;
  }
  return p;
}

}  // namespace miniapp::amg
