#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "miniapp/cli/mesh_options.hpp"
#include "operators/backend/executor.hpp"

namespace miniapp::bench {

// The matrices whose SpMV is timed on each mesh.
enum class BenchMatrix {
  laplacian,   // the FV Laplacian L, with AXPY, DOT and (settings.pcg) PCG on vectors of its length
  convection,  // the convection operator C(u_s), its coefficients refreshed from u_s by E_C
};
std::string_view name(BenchMatrix matrix);

struct KernelBenchSettings {
  std::vector<long long> sizes{10'000, 100'000, 1'000'000};  // target cell counts
  std::vector<cases::MeshGenerator> meshes{cases::MeshGenerator::hex, cases::MeshGenerator::tet,
                                           cases::MeshGenerator::prism};
  std::vector<BenchMatrix> matrices{BenchMatrix::laplacian, BenchMatrix::convection};
  int repeat = 20;
  bool pcg = false;  // also time one PCG iteration with AIP-1 per mesh (bench_pcg in kernel_bench.cpp)
};

// One timed kernel on one mesh.
struct KernelRecord {
  // spmv_csr, spmv_sell, spmv_sell_x3 (three vectors at once), coef_update, axpy, dot, dot_dev,
  // pcg_aip1, pcg_aip1_plain
  std::string kernel;
  std::string mesh;    // e.g. "hex 46^3"
  std::string matrix;  // name(BenchMatrix) of the matrix it multiplies by; empty for vector kernels
  index_t rows = 0;
  index_t nnz = 0;              // true non-zeros of the matrix (0 for vector kernels)
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
cases::MeshConfig bench_mesh_options(cases::MeshGenerator kind, long long cells);

// For every mesh kind and size, on random non-zero data, per call: the median of `repeat` samples of
// bench_queued_calls calls queued back to back, after warm-up (median_call_seconds: CUDA events on
// CUDA, wall time on CPU). Slice height 32 on CUDA, 8 on CPU; rows in the time loop's order (fv::default_cell_order).
// - Laplacian: SpMV (CSR and sELL), AXPY and DOT on vectors of its length; DOT twice, returning to
//   the host ("dot") and leaving its result on the device ("dot_dev"). With settings.pcg, one PCG
//   iteration with AIP-1 on −L, unprofiled, with and without CUDA Graphs ("pcg_aip1",
//   "pcg_aip1_plain": seconds and bytes per iteration).
// - Convection (walls on every patch, a random face velocity u_s): the refresh of its coefficients
//   values = E_C u_s ("coef_update", a CSR SpMV with one row per stored entry), SpMV (CSR and sELL)
//   and the generalized SpMV over three vectors ("spmv_sell_x3"), as the predictor applies it.
// On CUDA, cuSPARSE's CSR and sliced-ELL SpMV of each matrix, cuBLAS's AXPY and DOT, are timed on the
// same data after checking their results against ours (vendor_bench.hpp). Progress goes to `log`.
std::vector<KernelRecord> run_kernel_bench(const Executor& exec, const KernelBenchSettings& settings,
                                           std::ostream& log);

}  // namespace miniapp::bench
