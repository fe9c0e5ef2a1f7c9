#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "miniapp/case/case_config.hpp"
#include "parallel/halo_exchange.hpp"

namespace miniapp::bench {

// `miniapp bench ranks`, run under mpirun with one rank per GPU (thesis §2.4, §2.5): the overlap of
// the halo exchange with the inner SpMV, the time of a PCG iteration, and (with a case) of the whole
// time step, each the maximum over ranks of a median of timed repetitions.
struct RankBenchSettings {
  std::vector<long long> cells_per_rank;  // synthetic slab Laplacian sizes (SpMV and PCG)
  int repeat = 50;
  parallel::HaloTransport transport = parallel::HaloTransport::mpi;
  std::string backend = "cpu";
  std::optional<cases::CaseConfig> step_case;  // the case whose step is timed, with its mesh
  std::string step_case_path;
  int steps = 10;
};

struct OverlapRecord {
  long long cells_per_rank = 0, global_cells = 0;
  double compute = 0, halo = 0, overlapped = 0, sequential = 0;  // seconds per SpMV
  double pcg_iteration = 0;                                      // seconds (Jacobi PCG)
  double hidden() const { return halo > 0 ? (compute + halo - overlapped) / halo : 0.0; }
};

struct StepRecord {
  long long global_cells = 0;
  double seconds_per_step = 0;
  double poisson_iterations = 0;  // per step
};

struct RankBenchReport {
  int ranks = 1;
  std::string device, transport, date;
  std::vector<OverlapRecord> overlap;
  std::optional<StepRecord> step;
};

// Collective over MPI_COMM_WORLD. Progress to `log` (rank 0 only should pass a real stream).
RankBenchReport run_rank_bench(const RankBenchSettings& settings, std::ostream& log);

void print_table(std::ostream& out, const RankBenchReport& report);
void write_json(const std::string& path, const RankBenchReport& report);

}  // namespace miniapp::bench
