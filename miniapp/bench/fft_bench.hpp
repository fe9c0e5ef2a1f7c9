#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "operators/backend/executor.hpp"

namespace miniapp::bench {

struct FftBenchSettings {
  std::vector<long long> plane_cells{100'000};  // target 2D triangle counts
  std::vector<index_t> planes{64, 128, 256};    // Nper
  double tolerance = 1e-8;
  int repeat = 5;  // timed solves (warm-started in sequence) and timed SpMV calls; medians reported
};

// One extruded triangle mesh (N2d × Nper) measured.
struct FftBenchRecord {
  index_t plane_cells = 0, planes = 0;
  double fft_setup_seconds = 0;            // FftPoisson construction, preconditioner tuning included
  std::string preconditioner;              // the auto-tuned configuration and its measured costs
  double fft_seconds = 0, aip_cg_seconds = 0;  // per warm-started solve, median
  int fft_iterations = 0, aip_cg_iterations = 0;  // of the median-time solve (FFT: max over frequencies)
  double unified_spmv_seconds = 0, naive_spmv_seconds = 0;  // all Nper systems once, median
  double unified_spmv_bytes = 0, naive_spmv_bytes = 0;      // per call, from the kernel counters
  std::vector<int> iterations_jacobi, iterations_tuned;     // per frequency k, cold solve of a random b
};

struct FftBenchReport {
  std::string device, date;
  double copy_gb_per_s = 0;
  double tolerance = 0;
  int repeat = 0;
  std::vector<FftBenchRecord> records;
};

// For every 2D size and Nper: a triangulated unit square (N2d triangles) extruded into Nper uniform
// periodic layers, walls on the sides (singular −L). The FFT path's matrices come from a two-layer
// mesh with the same dz (the 2D operator and w do not depend on Nper), the 3D matrix
// −(L2d ⊗ I + diag(w) ⊗ Lper) is assembled from them in the 1D-block order, so no Nper-layer mesh is
// built. Times per solve (a sequence of slowly changing right-hand sides, each solve warm-started
// from the previous solution): FftPoisson (auto-tuned preconditioner) vs 3D PCG with AIP-1; the
// unified batched SpMV over all systems vs one sELL SpMV per frequency system (Nper matrices
// A + σ_k W, the naive storage of thesis Table 4.1); and the iterations per frequency of a cold solve
// with Jacobi everywhere and with the tuned configuration (thesis Fig. 4.4). Progress goes to `log`.
std::vector<FftBenchRecord> run_fft_bench(const Executor& exec, const FftBenchSettings& settings, std::ostream& log);

// Table of the records against the copy bandwidth.
void print_fft_report(std::ostream& out, const FftBenchReport& report);
// The report as JSON; throws miniapp::Error naming the file when it cannot be written.
void write_fft_json(const std::string& path, const FftBenchReport& report);
// One row per (mesh, frequency): plane_cells, planes, k, xi = 2k/Nper, iterations_jacobi, iterations_tuned.
void write_fft_iterations_csv(const std::string& path, const FftBenchReport& report);

}  // namespace miniapp::bench
