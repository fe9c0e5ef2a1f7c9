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
};

// One timed kernel on one mesh.
struct KernelRecord {
  std::string kernel;  // spmv_csr, spmv_sell, axpy, dot
  std::string mesh;    // e.g. "hex 46×46×46"
  index_t rows = 0;
  index_t nnz = 0;              // true non-zeros of the Laplacian (0 for vector kernels)
  index_t stored_entries = 0;   // entries stored by the format, padding included
  double seconds = 0;           // median over the repeats
  double bytes = 0;             // per call, from the executor's kernel counters
  double gb_per_s() const { return bytes / seconds / 1e9; }
};

// The generator options giving about `cells` cells of this kind: a box with equal counts per axis,
// not periodic (the wall rows make the row lengths uneven, as in a real case).
cli::MeshOptions bench_mesh_options(cli::MeshKind kind, long long cells);

// For every mesh kind and size: builds the mesh and its Laplacian (row_grouping_rcm order), and
// times SpMV (CSR and sELL; slice height 32 on CUDA, 8 on CPU), AXPY and DOT on vectors of its
// length with random non-zero data: median of `repeat` calls after warm-up, synchronised around
// each call. Progress goes to `log`.
std::vector<KernelRecord> run_kernel_bench(const Executor& exec, const KernelBenchSettings& settings,
                                           std::ostream& log);

}  // namespace miniapp::bench
