#pragma once
#include <array>
#include <string>
#include <vector>

#include "miniapp/predict/cost_curve.hpp"
#include "miniapp/predict/iteration_unit.hpp"

// The cost of communication between ranks (thesis §1.4-1.5, §2.4), calibrated per device, build and
// halo transport by 'mpirun -np P miniapp predict --calibrate': a halo update costs a latency plus the
// rank's halo bytes over the bandwidth the transport reached at that message size; a global
// reduction costs a latency that depends on the rank count.
namespace miniapp::predict {

// Halo updates on `ranks` ranks, each rank with `neighbours` neighbours: the time of one update of one
// vector against the bytes sent to each neighbour (points [bytes per neighbour, seconds]).
struct HaloCurve {
  int ranks = 2;
  int neighbours = 1;
  CostCurve curve;
};

// An MPI_Allreduce of one double on `ranks` ranks took `seconds` (slowest rank, median).
struct ReductionPoint {
  int ranks = 2;
  double seconds = 0;
};

// A Poisson iteration of DistributedPcg on `ranks` ranks timed whole (its halo updates, its two
// global reductions and each rank's waits for the others inside): seconds per iteration against the
// bytes and calls one rank's counters add (as Calibration::iteration_curves on one rank).
struct RankIterationCurve {
  int ranks = 2;
  IterationUnit unit = IterationUnit::pcg_jacobi;
  CostCurve curve;
};

struct CommCalibration {
  std::string transport;            // parallel::name(HaloTransport): "mpi", "mpi-cuda-aware", "nccl"
  std::vector<HaloCurve> halo;      // by increasing rank count, 2..P
  std::vector<ReductionPoint> allreduce;  // 2..P ranks
  std::vector<RankIterationCurve> iterations;  // per rank count 2..P, the units calibrated on ranks

  // The curve of `unit` measured on exactly `ranks` ranks; nullptr when there is none.
  const CostCurve* iteration_curve(IterationUnit unit, int ranks) const;

  int max_ranks() const { return halo.empty() ? 1 : halo.back().ranks; }
  // The curve measured on the fewest ranks ≥ `ranks`, or on the most ranks measured when `ranks` is
  // beyond them (an extrapolation the report names). Precondition: halo not empty.
  const HaloCurve& halo_for(int ranks) const;
  // Seconds of one update of `vectors` vectors whose messages to `neighbours` neighbours carry
  // `bytes` in all (every vector, every neighbour): all messages are in flight together, so one
  // latency L plus bytes / (n_cal · B(b)), B at the mean message size b and n_cal the calibration's
  // neighbours (n_cal · B is the rank's aggregate bandwidth). 0 when bytes ≤ 0.
  double halo_seconds(int ranks, double vectors, double neighbours, double bytes) const;
  // Seconds of one MPI_Allreduce on `ranks` ranks: measured values interpolated linearly in log2 of
  // the rank count, the line through the last two extended beyond them. 0 for one rank.
  double allreduce_seconds(int ranks) const;
};

// What one rank communicates in one phase of a step (or in one Poisson iteration), counted.
struct CommLoad {
  double updates = 0;             // halo updates
  double overlapped_updates = 0;  // of which had kernels running while their messages travelled
  double vectors = 0;             // Σ over updates of the vectors updated together
  double messages = 0;            // Σ over updates of the messages sent (vectors × neighbours)
  double sent_bytes = 0;          // Σ over updates of the bytes sent to all neighbours
  double received_bytes = 0;
  double overlapped_bytes = 0;    // bytes of the kernels that ran while messages travelled
  double overlapped_calls = 0;
  double reductions = 0;          // global reductions (allreduces)
  double reduced_values = 0;
  double seconds = 0;             // measured: halo updates' wall time outside kernels (reductions untimed)

  // The fields above in order: for fits, sums and messages between ranks.
  static constexpr int field_count = 11;
  std::array<double, field_count> values() const;
  static CommLoad from_values(const std::array<double, field_count>& v);
  CommLoad& operator+=(const CommLoad& o);
  CommLoad scaled(double factor) const;  // every field × factor
};

}  // namespace miniapp::predict
