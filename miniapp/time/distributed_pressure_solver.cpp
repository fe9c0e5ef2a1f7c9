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

PcgResult DistributedPcgPressureSolver::solve(const Vector& rhs, Vector& pressure, long /*step*/) {
  return pcg_.solve(matrix_, *preconditioner_, rhs, pressure, options_);
}

}  // namespace miniapp::time
