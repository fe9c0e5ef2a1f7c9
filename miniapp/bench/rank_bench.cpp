#include "miniapp/bench/rank_bench.hpp"

#include <chrono>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "miniapp/bench/bench_output.hpp"
#include "miniapp/bench/slab_operator.hpp"
#include "miniapp/bench/random_vector.hpp"
#include "miniapp/bench/timing.hpp"
#include "miniapp/run/rank_executor.hpp"
#include "miniapp/run/simulation.hpp"
#include "miniapp/time/distributed_pressure_solver.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/distributed_pcg.hpp"
#include "solvers/jacobi.hpp"

namespace miniapp::bench {
namespace {

using clock = std::chrono::steady_clock;

// Median over repetitions of the slowest rank's time of `call` (barrier before, synchronised after).
template <class F>
double slowest_median(const parallel::Communicator& comm, const Executor& exec, int warmup, int repeat, F&& call) {
  return median_of(warmup, repeat, [&] {
    comm.barrier();
    const auto start = clock::now();
    call();
    exec.synchronize();
    return comm.allreduce(std::chrono::duration<double>(clock::now() - start).count(), parallel::ReduceOp::max);
  });
}

OverlapRecord measure_overlap(const parallel::Communicator& comm, const Executor& exec, long long cells,
                              const RankBenchSettings& s) {
  const SlabOperator slab = slab_laplacian(cells, comm.rank(), comm.size());
  parallel::Subdomain domain(comm, exec, slab.numbering, s.transport);
  const parallel::OverlappedOperator a(exec, slab.matrix, domain, exec.default_slice_height());
  Vector x = random_vector(exec, domain.local_count(), 71 + comm.rank());
  Vector y(exec, domain.local_count());
  OverlapRecord r;
  r.cells_per_rank = domain.owned_count();
  r.global_cells = comm.allreduce(static_cast<long long>(domain.owned_count()), parallel::ReduceOp::sum);
  const int warmup = 3;
  r.compute = slowest_median(comm, exec, warmup, s.repeat, [&] { a.apply_local(x, y); });
  r.halo = slowest_median(comm, exec, warmup, s.repeat, [&] { domain.update_halo(x); });
  r.overlapped = slowest_median(comm, exec, warmup, s.repeat, [&] { a.apply(domain, x, y); });
  r.sequential = slowest_median(comm, exec, warmup, s.repeat, [&] { a.apply_after_update(domain, x, y); });

  // A fixed number of Jacobi-PCG iterations (tolerance 0 never stops them early).
  const Jacobi jacobi(exec, block_of_owned_rows(slab.matrix, domain.owned_count()));
  DistributedPcg pcg(exec, domain);
  PcgOptions options;
  options.tolerance = 0;
  options.max_iterations = s.repeat;
  const Vector b = random_vector(exec, domain.local_count(), 81 + comm.rank());
  r.pcg_iteration = slowest_median(comm, exec, 1, 3, [&] {
                      fill(exec, 0.0, y);
                      pcg.solve(a, jacobi, b, y, options);
                    }) /
                    s.repeat;
  return r;
}

StepRecord measure_step(const parallel::Communicator& comm, const RankBenchSettings& s, std::ostream& log) {
  run::Simulation sim = run::set_up_simulation(*s.step_case, s.step_case_path, log, &comm, s.transport);
  StepRecord r;
  r.global_cells = sim.global_cells;
  long iterations = 0;
  run::settle_pressure_path(sim);
  for (int i = 0; i < 2; ++i) sim.scheme->advance(*sim.fields);  // warm-up
  const double seconds = slowest_median(comm, sim.exec, 0, 1, [&] {
    for (int i = 0; i < s.steps; ++i) iterations += sim.scheme->advance(*sim.fields).poisson.iterations;
  });
  r.seconds_per_step = seconds / s.steps;
  r.poisson_iterations = static_cast<double>(iterations) / s.steps;
  return r;
}

}  // namespace

RankBenchReport run_rank_bench(const RankBenchSettings& s, std::ostream& log) {
  const parallel::Communicator comm;
  const Executor exec = run::rank_executor(s.backend, &comm);
  RankBenchReport report;
  report.ranks = comm.size();
  report.device = exec.description();
  report.transport = std::string(parallel::name(s.transport));
  report.date = utc_now();
  for (long long cells : s.cells_per_rank) {
    log << "slab Laplacian, " << cells << " cells per rank on " << comm.size() << " ranks\n" << std::flush;
    report.overlap.push_back(measure_overlap(comm, exec, cells, s));
  }
  if (s.step_case) report.step = measure_step(comm, s, log);
  return report;
}

void print_table(std::ostream& out, const RankBenchReport& r) {
  out << "ranks " << r.ranks << ", " << r.device << ", --comm " << r.transport << ", " << r.date << "\n"
      << "SpMV of the slab Laplacian (ms, slowest rank, median): computation alone, halo update alone,\n"
      << "overlapped, halo then SpMV; hidden = (compute + halo - overlapped) / halo; one Jacobi-PCG iteration\n"
      << "   cells/rank   global cells  compute     halo  overlap  sequential  hidden  pcg iteration\n";
  for (const OverlapRecord& o : r.overlap) {
    out << std::setw(13) << o.cells_per_rank << std::setw(15) << o.global_cells << std::fixed << std::setprecision(3)
        << std::setw(9) << 1e3 * o.compute << std::setw(9) << 1e3 * o.halo << std::setw(9) << 1e3 * o.overlapped
        << std::setw(12) << 1e3 * o.sequential;
    if (r.ranks > 1) out << std::setw(7) << std::setprecision(0) << 100 * o.hidden() << " %";
    else out << "      -  ";  // one rank: nothing to hide
    out << std::setprecision(3) << std::setw(12) << 1e3 * o.pcg_iteration << " ms\n" << std::defaultfloat;
  }
  if (r.step)
    out << "time step: " << r.step->global_cells << " cells, " << std::fixed << std::setprecision(3)
        << 1e3 * r.step->seconds_per_step << " ms/step, " << std::setprecision(1) << r.step->poisson_iterations
        << " Poisson iterations per step\n"
        << std::defaultfloat;
}

void write_json(const std::string& path, const RankBenchReport& r) {
  nlohmann::ordered_json overlap = nlohmann::ordered_json::array();
  for (const OverlapRecord& o : r.overlap)
    overlap.push_back({{"cells_per_rank", o.cells_per_rank}, {"global_cells", o.global_cells},
                       {"compute_s", o.compute}, {"halo_s", o.halo}, {"overlapped_s", o.overlapped},
                       {"sequential_s", o.sequential}, {"hidden", o.hidden()}, {"pcg_iteration_s", o.pcg_iteration}});
  nlohmann::ordered_json doc{{"ranks", r.ranks}, {"device", r.device}, {"transport", r.transport}, {"date", r.date},
                             {"overlap", overlap}};
  if (r.step)
    doc["step"] = {{"global_cells", r.step->global_cells}, {"seconds_per_step", r.step->seconds_per_step},
                   {"poisson_iterations", r.step->poisson_iterations}};
  write_json_file(path, doc, "--json");
}

}  // namespace miniapp::bench
