#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "solvers/amg/amg.hpp"

namespace miniapp::bench {

// One kernel call of an AMG level's part of the V-cycle, timed alone (miniapp poisson --level-kernels).
struct LevelKernelRecord {
  int level = 0;          // 0: the finest (the PCG's matrix)
  std::string kernel;     // Amg::KernelCall's
  std::string operation;
  index_t rows = 0;       // entries it writes
  double bytes = 0;       // of one call, by the kernel counters
  double seconds = 0;     // median per call
  double gb_per_s() const { return bytes / seconds / 1e9; }
};

// Every kernel call of the `levels` finest levels' parts of amg's cycle (Amg::level_calls; the
// coarsest level's part is its coarse solve), each on the level's own matrices and vectors, which one
// apply to a random non-zero r (random_vector) fills with a cycle's values first. Per call: its bytes,
// the counters' difference around one call; its time, median_call_seconds (CUDA events on CUDA, wall
// time on CPU) of `repeat` samples of bench_queued_calls calls queued back to back, after 3 untimed.
std::vector<LevelKernelRecord> time_level_kernels(const Executor& exec, const Amg& amg, int levels, int repeat);

// Per level (its rows and non-zeros from `levels`, Amg::level_sizes): a table of kernel, operation,
// rows, bytes per call, median µs, GB/s and % of copy_gb_per_s, then the level's calls together (their
// bytes over the sum of their medians).
void print_level_kernels(std::ostream& out, const std::vector<LevelKernelRecord>& records,
                         const std::vector<Amg::LevelSize>& levels, double copy_gb_per_s, int repeat);

// The records as a JSON array, each with its GB/s and % of copy_gb_per_s.
nlohmann::ordered_json level_kernels_json(const std::vector<LevelKernelRecord>& records, double copy_gb_per_s);

}  // namespace miniapp::bench
