#include "miniapp/time/distributed_pressure_solver.hpp"

namespace miniapp::time {

DistributedPcgPressureSolver::DistributedPcgPressureSolver(const Executor& exec, parallel::Subdomain& domain,
                                                           const CsrMatrix& minus_laplacian, index_t slice_height,
                                                           std::unique_ptr<Preconditioner> preconditioner,
                                                           const PcgOptions& options)
    : matrix_(exec, minus_laplacian, domain, slice_height),
      preconditioner_(std::move(preconditioner)),
      options_(options),
      pcg_(exec, domain) {}

PcgResult DistributedPcgPressureSolver::solve(const Vector& rhs, Vector& pressure) {
  return pcg_.solve(matrix_, *preconditioner_, rhs, pressure, options_);
}

CsrMatrix block_of_owned_rows(const CsrMatrix& local, index_t owned) {
  std::vector<Triplet> t;
  for (index_t i = 0; i < local.rows; ++i) {
    if (i >= owned) {
      t.push_back({i, i, 1.0});
      continue;
    }
    for (index_t p = local.row_ptr[i]; p < local.row_ptr[i + 1]; ++p)
      if (local.col[p] < owned) t.push_back({i, local.col[p], local.val[p]});
  }
  return csr_from_triplets(local.rows, local.cols, std::move(t));
}

}  // namespace miniapp::time
