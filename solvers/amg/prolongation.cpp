#include "solvers/amg/prolongation.hpp"

#include <algorithm>
#include <atomic>

#include "operators/sparse/csr_rows.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "solvers/amg/aggregation_rules.hpp"
#include "solvers/amg/spectral_bound.hpp"

namespace miniapp::amg {

CsrMatrix tentative_prolongation(const Aggregates& aggregates) {
  CsrMatrix t;
  t.rows = static_cast<index_t>(aggregates.of_row.size());
  t.cols = aggregates.count;
  t.row_ptr.resize(static_cast<std::size_t>(t.rows) + 1);
  for (index_t i = 0; i <= t.rows; ++i) t.row_ptr[i] = i;
  t.col.assign(aggregates.of_row.begin(), aggregates.of_row.end());
  t.val.assign(aggregates.of_row.size(), 1.0);
  return t;
}

using aggregation_rules::weak_link;

bool drops_no_link(const CsrMatrix& a, const std::vector<double>& d, double threshold) {
  const double threshold_squared = threshold * threshold;
  std::atomic<bool> weak_found{false};  // rows after the first find are skipped, by every thread
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(a.nnz()))
  for (index_t i = 0; i < a.rows; ++i) {
    if (weak_found.load(std::memory_order_relaxed)) continue;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col[k] != i && weak_link(a.val[k], d[i], d[a.col[k]], threshold_squared))
        weak_found.store(true, std::memory_order_relaxed);
  }
  return !weak_found.load();
}

CsrMatrix filtered_matrix(const CsrMatrix& a, const std::vector<double>& d, double threshold, RowBlocks* reuse) {
  const double threshold_squared = threshold * threshold;
  return csr_from_rows(a.rows, a.cols, [&] {
    return [&](index_t i, RowEntries& out) {
      double dropped = 0;
      std::size_t diagonal = 0;  // positive_diagonal has guaranteed the entry
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        const index_t j = a.col[k];
        if (j != i && weak_link(a.val[k], d[i], d[j], threshold_squared)) {
          dropped += a.val[k];
          continue;
        }
        if (j == i) diagonal = out.size();
        out.push(j, a.val[k]);
      }
      // Positive links that pass the strength test (Galerkin products make some) can leave a row's
      // diagonal with weak links added non-positive; such a row keeps its own, as D_F⁻¹ needs D_F > 0.
      if (out.val[diagonal] + dropped > 0) out.val[diagonal] += dropped;
    };
  }, reuse);
}

std::vector<double> row_diagonal(const CsrMatrix& a) {
  std::vector<double> d(static_cast<std::size_t>(a.rows), 0.0);
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(a.nnz()))
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col[k] == i) d[i] = a.val[k];
  return d;
}

// Row i of P: (A_F T)_iJ = Σ f_ik over the columns k in aggregate J (in row order), scaled by −ω / f_ii,
// plus 1 in i's own aggregate (always among them: the diagonal is kept).
CsrMatrix jacobi_smoothed_prolongation(const CsrMatrix& f, const std::vector<double>& fd, double omega,
                                       const Aggregates& aggregates, RowBlocks* reuse) {
  const std::vector<index_t>& of_row = aggregates.of_row;
  return csr_from_rows(f.rows, aggregates.count, [&] {
    return [&, sums = std::vector<std::pair<index_t, double>>()](index_t i, RowEntries& out) mutable {
      sums.clear();
      for (index_t k = f.row_ptr[i]; k < f.row_ptr[i + 1]; ++k) {
        const index_t aggregate = of_row[f.col[k]];
        auto it = std::find_if(sums.begin(), sums.end(), [&](const auto& s) { return s.first == aggregate; });
        if (it == sums.end()) sums.emplace_back(aggregate, f.val[k]);
        else it->second += f.val[k];
      }
      std::sort(sums.begin(), sums.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      const double scale = -omega / fd[i];
      for (const auto& [aggregate, sum] : sums) out.push(aggregate, sum * scale + (aggregate == of_row[i] ? 1.0 : 0.0));
    };
  }, reuse);
}

CsrMatrix smoothed_prolongation(const CsrMatrix& filtered, const Aggregates& aggregates,
                                std::optional<double> known_bound, RowBlocks* reuse) {
  const std::vector<double> fd = row_diagonal(filtered);
  const double bound = known_bound ? *known_bound : largest_eigenvalue_bound(filtered, fd);
  return jacobi_smoothed_prolongation(filtered, fd, jacobi_weight(bound), aggregates, reuse);
}


}  // namespace miniapp::amg
