#include "miniapp/predict/comm_calibration.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <ostream>
#include <set>

#include "miniapp/predict/rank_iteration_calibration.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::predict {
namespace {

constexpr int max_ring_offset = 3;  // neighbours r ± 1..3: up to 6, as a rank of a 3D partition has

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Seconds per call of `call`: batches of back-to-back calls after a barrier, minus the kernel seconds
// the executor counted during them; the slowest rank's, median over batches. Collective over `comm`.
double time_per_call(const parallel::Communicator& comm, const Executor& exec, const CommCalibrationSettings& s,
                     const std::function<void()>& call) {
  call();  // first touch, connection set-up
  std::vector<double> times;
  for (int b = 0; b < s.batches; ++b) {
    comm.barrier();
    const KernelCounters before = exec.counters();
    const double start = now();
    for (int i = 0; i < s.batch_calls; ++i) call();
    exec.synchronize();
    const double kernels = exec.counters().since(before).total().seconds;
    times.push_back(comm.allreduce((now() - start - kernels) / s.batch_calls, parallel::ReduceOp::max));
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return std::max(times[times.size() / 2], 1e-9);
}

// The first k ranks of `world` as a communicator (collective over world); nullopt on the others.
std::optional<parallel::Communicator> first_ranks(const parallel::Communicator& world, int k) {
  MPI_Comm split = MPI_COMM_NULL;
  MINIAPP_MPI_CHECK(MPI_Comm_split(world.get(), world.rank() < k ? 0 : MPI_UNDEFINED, world.rank(), &split));
  if (split == MPI_COMM_NULL) return std::nullopt;
  std::optional<parallel::Communicator> comm(std::in_place, split);  // a duplicate of it
  MINIAPP_MPI_CHECK(MPI_Comm_free(&split));
  return comm;
}

HaloCurve halo_curve(const parallel::Communicator& comm, const Executor& exec, parallel::HaloTransport transport,
                     const CommCalibrationSettings& s) {
  HaloCurve h{comm.size(), 0, {}};
  std::vector<CostPoint> points;
  for (const index_t doubles : s.message_doubles) {
    const parallel::LocalNumbering numbering = ring_numbering(comm.rank(), comm.size(), doubles);
    h.neighbours = static_cast<int>(numbering.neighbour_ranks().size());
    parallel::Subdomain domain(comm, exec, numbering, transport);
    Vector v(exec, numbering.local_count());
    fill(exec, 1.0, v);
    const double seconds = time_per_call(comm, exec, s, [&] { domain.update_halo(v); });
    points.push_back({8.0 * static_cast<double>(doubles), seconds});
  }
  h.curve = CostCurve(std::move(points));
  return h;
}

}  // namespace

parallel::LocalNumbering ring_numbering(int rank, int ranks, index_t doubles) {
  std::set<int> neighbours;
  for (int o = 1; o <= max_ring_offset; ++o)
    for (const int j : {(rank + o) % ranks, (rank - o % ranks + ranks) % ranks})
      if (j != rank) neighbours.insert(j);
  parallel::LocalNumbering n;
  n.rank = rank;
  n.interface_count = doubles;
  n.halo_count = doubles * static_cast<index_t>(neighbours.size());
  for (index_t i = 0; i < doubles; ++i) n.local_to_global.push_back(rank * doubles + i);
  for (const int j : neighbours)
    for (index_t i = 0; i < doubles; ++i) {
      n.local_to_global.push_back(j * doubles + i);
      n.halo_owner.push_back(j);
    }
  for (index_t l = 0; l < n.local_count(); ++l) n.global_to_local.emplace(n.local_to_global[l], l);
  return n;
}

CommCalibration calibrate_communication(const parallel::Communicator& world, const Executor& exec,
                                        parallel::HaloTransport transport, const CommCalibrationSettings& settings,
                                        std::ostream& log) {
  CommCalibration c;
  c.transport = std::string(parallel::name(transport));
  for (int k = 2; k <= world.size(); ++k) {
    log << "  communication on " << k << " ranks (halo transport " << c.transport << ")\n" << std::flush;
    const std::optional<parallel::Communicator> comm = first_ranks(world, k);
    HaloCurve h;
    double allreduce = 0;
    if (comm) {
      h = halo_curve(*comm, exec, transport, settings);
      allreduce = time_per_call(*comm, exec, settings, [&] { comm->allreduce(1.0, parallel::ReduceOp::sum); });
      for (RankIterationCurve& i : calibrate_rank_iterations(*comm, exec, transport, settings.iterations, log))
        c.iterations.push_back(std::move(i));
    }
    world.barrier();
    c.halo.push_back(std::move(h));  // rank 0 takes part in every k: its curves are the file's
    c.allreduce.push_back({k, allreduce});
  }
  return c;
}

}  // namespace miniapp::predict
