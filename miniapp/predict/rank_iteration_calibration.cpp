#include "miniapp/predict/rank_iteration_calibration.hpp"

#include <algorithm>
#include <ostream>
#include <string>

#include "miniapp/bench/random_vector.hpp"
#include "miniapp/bench/slab_operator.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "parallel/overlapped_operator.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/amg/rank_hierarchy.hpp"
#include "solvers/distributed_pcg.hpp"
#include "solvers/jacobi.hpp"

namespace miniapp::predict {

std::vector<RankIterationCurve> calibrate_rank_iterations(const parallel::Communicator& comm, const Executor& exec,
                                                          parallel::HaloTransport transport,
                                                          const IterationCalibrationSettings& settings,
                                                          std::ostream& log) {
  std::vector<CostPoint> jacobi_points, amg_points;
  const index_t h = exec.default_slice_height();
  for (const index_t rows : settings.rows.empty() ? default_iteration_rows(exec.backend()) : settings.rows) {
    log << "    Poisson iterations on " << comm.size() << " ranks, about " << rows << " rows each\n" << std::flush;
    const bench::SlabOperator slab = bench::slab_laplacian(rows, comm.rank(), comm.size());
    parallel::Subdomain domain(comm, exec, slab.numbering, transport);
    const parallel::OverlappedOperator a(exec, slab.matrix, domain, h);
    const Vector b = bench::random_vector(exec, domain.local_count(), 31 + static_cast<std::uint64_t>(comm.rank()));
    Vector x(exec, domain.local_count());
    DistributedPcg pcg(exec, domain);
    const auto point = [&](const Preconditioner& m, const char* unit) {
      const std::string what = std::string("the ") + unit + " iteration on " + std::to_string(comm.size()) +
                               " ranks of " + std::to_string(domain.owned_count()) + " rows";
      return iteration_point(exec, settings, [&](int iterations) {
        comm.barrier();
        fill(exec, 0.0, x);
        return pcg.solve(a, m, b, x, exactly(iterations)).iterations;
      }, what);
    };
    jacobi_points.push_back(point(Jacobi(exec, block_of_owned_rows(slab.matrix, domain.owned_count())), "pcg_jacobi"));
    // At least one level above the coarsest, as on one rank (iteration_calibration.cpp).
    const long long global_rows = comm.allreduce(static_cast<long long>(domain.owned_count()), parallel::ReduceOp::sum);
    const amg::AmgOptions options{
        .coarse_rows = static_cast<index_t>(std::clamp<long long>(global_rows / 8, 1, amg::AmgOptions{}.coarse_rows))};
    const amg::RankHierarchy hierarchy = amg::build_rank_hierarchy(
        comm, slab.numbering, parallel::row_block(slab.matrix, 0, domain.owned_count()), options);
    amg_points.push_back(point(Amg(exec, domain, hierarchy, options, h, transport), "pcg_amg"));
  }
  return {{comm.size(), IterationUnit::pcg_jacobi, CostCurve(jacobi_points)},
          {comm.size(), IterationUnit::pcg_amg, CostCurve(amg_points)}};
}

}  // namespace miniapp::predict
