#pragma once
#include <iosfwd>
#include <vector>

#include "miniapp/predict/comm_model.hpp"
#include "miniapp/predict/iteration_calibration.hpp"
#include "parallel/subdomain.hpp"

namespace miniapp::predict {

struct CommCalibrationSettings {
  // Doubles sent to each neighbour per halo update (8 B to 2 MiB).
  std::vector<index_t> message_doubles{1, 16, 256, 4096, 32768, 262144};
  int batches = 5;       // timed batches per point (median of the slowest rank's)
  int batch_calls = 20;  // back-to-back updates or reductions per batch
  // The Poisson iteration units on each rank count (calibrate_rank_iterations): rows per rank.
  IterationCalibrationSettings iterations = [] {
    IterationCalibrationSettings s;
    s.repeat = 5;
    return s;
  }();
};

// The synthetic layout of the halo calibration: rank `rank` of `ranks` owns `doubles` cells, all of
// them interface cells, and holds the cells of its neighbours r ± 1, r ± 2, r ± 3 (mod ranks, up to 6
// distinct) as halo: every update sends `doubles` values to each neighbour.
parallel::LocalNumbering ring_numbering(int rank, int ranks, index_t doubles);

// Measures, on the first k ranks of `world` for k = 2..world.size(): the time of a Subdomain halo
// update of one vector on ring_numbering for each message size (the gather and scatter kernels'
// own seconds, as the executor counts them, taken out: the step's kernel counts price them), and of
// an MPI_Allreduce of one double, times per call, the slowest rank's, median over batches; and the
// Poisson iteration units on those k ranks (calibrate_rank_iterations). Collective over `world` (≥ 2 ranks); progress on `log`.
CommCalibration calibrate_communication(const parallel::Communicator& world, const Executor& exec,
                                        parallel::HaloTransport transport, const CommCalibrationSettings& settings,
                                        std::ostream& log);

}  // namespace miniapp::predict
