#pragma once
#include <string>
#include <vector>

#include "miniapp/cli/mesh_options.hpp"
#include "operators/backend/executor.hpp"

namespace miniapp::bench {

struct KernelBenchSettings {
  std::vector<long long> sizes{10'000, 100'000, 1'000'000};  // target cell counts
  std::vector<cli::MeshKind> meshes{cli::MeshKind::hex, cli::MeshKind::tet, cli::MeshKind::prism};
  int repeat = 20;
  bool pcg = false;  // also time one PCG iteration with AIP-1 per mesh (bench_pcg in kernel_bench.cpp)
};

// One timed kernel on one mesh.
struct KernelRecord {
  std::string kernel;  // spmv_csr, spmv_sell, axpy, dot, dot_dev, pcg_aip1, pcg_aip1_plain
  std::string mesh;    // e.g. "hex 46×46×46"
  index_t rows = 0;
  index_t nnz = 0;              // true non-zeros of the Laplacian (0 for vector kernels)
  index_t stored_entries = 0;   // entries stored by the format, padding included
  double seconds = 0;           // median over the repeats
  double bytes = 0;             // per call, from the executor's kernel counters
  // CUDA: the vendor library's version of the kernel on the same data (vendor_bench.hpp); empty
  // baseline otherwise.
  std::string baseline;             // e.g. "cusparse sell_alg1"
  double baseline_seconds = 0;      // median, timed like ours
  double baseline_difference = 0;   // max relative difference of its result from ours (≤ 1e-12)
  std::string baseline_failure;     // why it was not timed (library error, disagreement); empty if it was
  double gb_per_s() const { return bytes / seconds / 1e9; }
};

// The generator options giving about `cells` cells of this kind: a box with equal counts per axis,
// not periodic (the wall rows make the row lengths uneven, as in a real case).
cli::MeshOptions bench_mesh_options(cli::MeshKind kind, long long cells);

// For every mesh kind and size: builds the mesh and its Laplacian (row_grouping_rcm order), and
// times SpMV (CSR and sELL; slice height 32 on CUDA, 8 on CPU), AXPY and DOT on vectors of its
// length with random non-zero data: per call, median of `repeat` samples of bench_queued_calls calls
// queued back to back, after warm-up (median_call_seconds:
// CUDA events on CUDA, wall time on CPU); DOT twice, returning to the host ("dot") and leaving its
// result on the device ("dot_dev"). On CUDA, also times cuSPARSE and cuBLAS on the same data after
// checking their results against ours (add_vendor_baselines). With settings.pcg, one PCG iteration
// with AIP-1 on −L, unprofiled, with and without CUDA Graphs ("pcg_aip1", "pcg_aip1_plain": seconds
// and bytes per iteration). Progress goes to `log`.
std::vector<KernelRecord> run_kernel_bench(const Executor& exec, const KernelBenchSettings& settings,
                                           std::ostream& log);

}  // namespace miniapp::bench
