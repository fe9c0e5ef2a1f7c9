#pragma once
#include <iosfwd>
#include <vector>

#include "miniapp/predict/comm_model.hpp"
#include "miniapp/predict/iteration_calibration.hpp"
#include "parallel/subdomain.hpp"

namespace miniapp::predict {

// The Poisson iteration units on the ranks of `comm` (RankIterationCurve, comm.size() ranks):
// DistributedPcg with block Jacobi (pcg_jacobi) and with AMG coupled across the ranks (pcg_amg), as a
// case on several ranks runs them, on bench::slab_laplacian (the 7-point stencil cut into z-slabs,
// settings.rows rows per rank, the backend's default when empty), halo updates through `transport`.
// Each point as iteration_point times it, every solve started after a barrier, so that the time holds
// the halo updates, the global reductions and each rank's waits for the others; bytes and calls are
// this rank's counters' (rank 0's are the file's). Collective over comm; progress on `log`.
std::vector<RankIterationCurve> calibrate_rank_iterations(const parallel::Communicator& comm, const Executor& exec,
                                                          parallel::HaloTransport transport,
                                                          const IterationCalibrationSettings& settings,
                                                          std::ostream& log);

}  // namespace miniapp::predict
