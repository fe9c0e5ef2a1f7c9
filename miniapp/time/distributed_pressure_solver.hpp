#pragma once
#include <memory>

#include "miniapp/time/pressure_solver.hpp"
#include "solvers/distributed_pcg.hpp"

namespace miniapp::time {

// Step 2.2 on several ranks: DistributedPcg with the overlapped SpMV, warm-started from the previous
// pressure. The pressure's halo is not updated here (the integrator does it with its other halo
// updates).
class DistributedPcgPressureSolver final : public PressureSolver {
 public:
  // `minus_laplacian`: −L on the rank's cells (owned-then-halo layout, host CSR); `preconditioner`
  // must read no halo entry of its input (see miniapp::block_of_owned_rows, or Amg across ranks).
  DistributedPcgPressureSolver(const Executor& exec, parallel::Subdomain& domain, const CsrMatrix& minus_laplacian,
                               index_t slice_height, std::unique_ptr<Preconditioner> preconditioner,
                               const PcgOptions& options);
  PcgResult solve(const Vector& rhs, Vector& pressure, long step) override;

 private:
  parallel::OverlappedOperator matrix_;
  std::unique_ptr<Preconditioner> preconditioner_;
  PcgOptions options_;
  DistributedPcg pcg_;
};

}  // namespace miniapp::time
