#include "solvers/amg/prolongation.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "operators/sparse/csr_rows.hpp"
#include "solvers/amg/galerkin.hpp"
#include "solvers/amg/spectral_bound.hpp"

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

CsrMatrix filtered_matrix(const CsrMatrix& a, const std::vector<double>& d, double threshold) {
  return csr_from_rows(a.rows, a.cols, [&] {
    return [&](index_t i, RowEntries& out) {
      double dropped = 0;
      std::size_t diagonal = 0;  // positive_diagonal has guaranteed the entry
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        const index_t j = a.col[k];
        if (j != i && link_strength(a.val[k], d[i], d[j]) < threshold) {
          dropped += a.val[k];
          continue;
        }
        if (j == i) diagonal = out.size();
        out.push(j, a.val[k]);
      }
      out.val[diagonal] += dropped;
    };
  });
}

std::vector<double> row_diagonal(const CsrMatrix& a) {
  std::vector<double> d(static_cast<std::size_t>(a.rows), 0.0);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col[k] == i) d[i] = a.val[k];
  return d;
}

CsrMatrix jacobi_smoothed_prolongation(const CsrMatrix& f, const std::vector<double>& fd, double omega,
                                       const Aggregates& aggregates) {
  CsrMatrix p = sparse_product(f, tentative_prolongation(aggregates));  // A_F T, then T − ω D_F⁻¹ (A_F T) in place
  for (index_t i = 0; i < p.rows; ++i) {
    const auto first = p.col.begin() + p.row_ptr[i], last = p.col.begin() + p.row_ptr[i + 1];
    for (auto k = p.row_ptr[i]; k < p.row_ptr[i + 1]; ++k) p.val[k] *= -omega / fd[i];
    // (A_F T)_i,agg(i) holds the diagonal: the product keeps it as an entry even where it sums to zero.
    const auto own = std::lower_bound(first, last, aggregates.of_row[i]);
    if (own == last || *own != aggregates.of_row[i])
      throw Error("smoothed_prolongation: row " + std::to_string(i) + " of A T lacks its own aggregate's column");
    p.val[own - p.col.begin()] += 1.0;
  }
  return p;
}

CsrMatrix smoothed_prolongation(const CsrMatrix& a, const std::vector<double>& d, double threshold,
                                const Aggregates& aggregates) {
  const CsrMatrix f = filtered_matrix(a, d, threshold);
  const std::vector<double> fd = row_diagonal(f);
  return jacobi_smoothed_prolongation(f, fd, 4.0 / (3.0 * largest_eigenvalue_bound(f, fd)), aggregates);
}

}  // namespace miniapp::amg
