#pragma once
#include <iosfwd>
#include <vector>

#include "core/types.hpp"
#include "miniapp/predict/calibration.hpp"

namespace miniapp::predict {

struct CalibrationSettings {
  // Vector lengths of AXPY, DOT, pointwise and copy; rows of the SpMV matrices (a 7-point stencil).
  std::vector<index_t> vector_sizes{1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22};
  std::vector<index_t> spmv_rows{1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20};
  // Rows of the Poisson iterations timed whole (calibrate_iterations); empty: its backend's default.
  std::vector<index_t> iteration_rows;
  // Plane rows of the batched iterations timed by width and with an AMG block (calibrate_batched_costs);
  // empty: its backend's default.
  std::vector<index_t> width_planes;
  int repeat = 9;            // timed calls per point (median)
  double flush_bytes = 0;    // streaming curves: bytes copied before each call; 0: max(2 × cache, 256 MiB)
  double warm_flush_bytes = 0;  // warm curves: likewise; 0: 4 × the private cache (8 MiB where none)
};

// Times every kernel variant at every size, hot (same operands, back to back), warm and streaming (a
// copy of `warm_flush_bytes` or `flush_bytes` evicts them from the caches before each call); the bytes
// per call are what the front end adds to the counters. CPU (synchronous): median wall time of
// `repeat` single calls after two warm-up calls. Asynchronous backends (CUDA): the pipelined cost,
// as in the time loop: batches of back-to-back calls on the stream between two events, per call (the
// flushes timed alone and subtracted); the DOT curve from cg_rho (result kept on the device), and
// `sync_seconds` the extra round trip of a dot() that returns its value to the host; and the
// graph_curves: the same calls recorded 48 at a time in a KernelGraph, one replay timed between two
// events (as Pcg replays its iterations). On every backend the iteration_curves of the solvers' whole
// iterations (calibrate_iterations, on iteration_rows), the batched iteration by width and with an
// AMG block (calibrate_batched_costs, on width_planes), and cache_retention. `copy_gb_per_s`
// (bench::copy_bandwidth) is stored as the roofline ceiling. Progress goes to `log`. Adds to exec's
// counters.
Calibration calibrate(const Executor& exec, const CalibrationSettings& settings, double copy_gb_per_s,
                      std::ostream& log);

}  // namespace miniapp::predict
