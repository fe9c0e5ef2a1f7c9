// What an AMG block of the FFT path's frequency preconditioner costs per counted byte, against the
// batched Jacobi iteration's: the block's V-cycle timed alone and in place (the batched PCG iteration
// with the block on, less the iteration without it, every system running), on the channel case's plane
// (48 × 48 cells stretched towards its walls, 32 layers: 34 systems) or on the calibration's plane
// stencil; and its coarsest level's part, the dense inverse applied by one batched SpMV over 2 and 6
// of the systems. One thread, as the calibration times it. docs/cost-model.md cites its output.
// Usage: amg_block_cost channel | amg_block_cost ROWS SYSTEMS
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "miniapp/bench/random_vector.hpp"
#include "miniapp/bench/timing.hpp"
#include "miniapp/predict/iteration_calibration.hpp"
#include "miniapp/predict/stencil_matrix.hpp"
#include "operators/fv/laplacian.hpp"
#include "solvers/fft/batched_pcg.hpp"
#include "solvers/fft/extrusion.hpp"

using namespace miniapp;

namespace {

// The channel case's FFT-path systems: its mesh, plane operator and frequency shifts.
std::unique_ptr<fft::BatchedPcg> channel_systems(const Executor& exec) {
  const mesh::Mesh m = mesh::make_hex_box({.cells = {48, 48, 32},
                                           .origin = {0, -1, 0},
                                           .length = {6.283185307179586, 2, 3.141592653589793},
                                           .stretch = {0, 2, 0},
                                           .periodic = {true, false, true}});
  const mesh::MeshGeometry g = mesh::compute_geometry(m);
  const fft::Extrusion e = fft::detect_extrusion(m, g);
  const fft::PlaneOperator op = fft::split_extruded_operator(fv::laplacian_matrix(m, g), e);
  std::vector<double> shifts;
  for (index_t s = 0; s < e.planes + 2; ++s) shifts.push_back(-fft::periodic_eigenvalue(s / 2, e.planes));
  return std::make_unique<fft::BatchedPcg>(exec, negated(op.in_plane), op.z_coupling, shifts, op.singular,
                                           fft::block_systems_for(e.planes + 2, 8));
}

// The calibration's systems: the plane stencil, shifts 0.01 k.
std::unique_ptr<fft::BatchedPcg> stencil_systems(const Executor& exec, index_t rows, index_t systems) {
  const CsrMatrix a = predict::stencil_matrix(rows, 2);
  std::vector<double> shifts;
  for (index_t k = 0; k < systems; ++k) shifts.push_back(0.01 * static_cast<double>(k));
  return std::make_unique<fft::BatchedPcg>(exec, a, std::vector<double>(a.rows, 1.0), shifts, false);
}

// A dense n × n matrix in CSR, as the coarsest level's inverse is stored.
CsrMatrix dense_matrix(index_t n) {
  CsrMatrix d;
  d.rows = d.cols = n;
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < n; ++j) {
      d.col.push_back(j);
      d.val.push_back(1.0 / static_cast<double>(1 + i + j));
    }
    d.row_ptr.push_back(d.row_ptr.back() + n);
  }
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || (std::strcmp(argv[1], "channel") != 0 && argc < 3)) {
    std::fprintf(stderr, "usage: amg_block_cost channel | amg_block_cost ROWS SYSTEMS\n");
    return 2;
  }
  const Executor exec = Executor::cpu();
  const std::unique_ptr<fft::BatchedPcg> pcg = std::strcmp(argv[1], "channel") == 0
                                                   ? channel_systems(exec)
                                                   : stencil_systems(exec, std::atol(argv[1]), std::atol(argv[2]));
  const index_t systems = pcg->systems();
  Vector b = bench::random_vector(exec, pcg->rows() * systems, 29);  // the solver projects it where singular
  Vector x(exec, b.size()), z(exec, b.size());
  const predict::IterationCalibrationSettings settings;
  const auto iteration = [&] {
    return predict::iteration_point(exec, settings, [&](int iterations) {
      const auto r = pcg->solve(b, x, {.tolerance = 0, .max_iterations = iterations});
      return *std::min_element(r.iterations.begin(), r.iterations.end());
    }, "the batched iteration");
  };
  for (const index_t n : {64, 128, 256}) {
    const DeviceCsr inverse(exec, dense_matrix(n));
    const Vector xs = bench::random_vector(exec, n * systems, 3);
    Vector ys(exec, n * systems);
    for (const index_t width : {2, 6}) {
      const auto apply = [&] { fft::batched_spmv(exec, inverse, xs, ys, systems, {0, width}); };
      const KernelCounters before = exec.counters();
      apply();
      const double bytes = exec.counters().since(before).total().bytes;
      const double seconds = bench::median_call_seconds(exec, 1, 9, apply, 8);
      std::printf("dense inverse %d x %d over %d of %d systems: %.1f us, %.0f KB, %.2f GB/s\n", static_cast<int>(n),
                  static_cast<int>(n), static_cast<int>(width), static_cast<int>(systems), seconds * 1e6, bytes / 1e3,
                  bytes / seconds / 1e9);
    }
  }
  fft::FrequencyPreconditioner& m = pcg->preconditioner();
  for (int round = 0; round < 3; ++round) {
    m.use_leading_blocks(fft::LeadingPreconditioner::amg, 0);
    const predict::CostPoint jacobi = iteration();
    m.use_leading_blocks(fft::LeadingPreconditioner::amg, 1);
    const predict::CostPoint with_block = iteration();
    const fft::SystemRange block{0, m.block_systems()};
    const KernelCounters before = exec.counters();
    m.apply_leading(b, z, block);
    const double bytes = exec.counters().since(before).total().bytes;
    const double alone = bench::median_call_seconds(exec, 1, 9, [&] { m.apply_leading(b, z, block); }, 8);
    const double per_byte = jacobi.seconds / jacobi.bytes;
    std::printf("%d rows, %d systems, a block of %d: Jacobi iteration %.1f us (%.2f GB/s); the block %.2f times its "
                "cost per byte in place, %.2f alone (%.1f us, %.0f KB)\n",
                static_cast<int>(pcg->rows()), static_cast<int>(systems), static_cast<int>(m.block_systems()),
                jacobi.seconds * 1e6, jacobi.bytes / jacobi.seconds / 1e9,
                (with_block.seconds - jacobi.seconds) / (with_block.bytes - jacobi.bytes) / per_byte,
                alone / bytes / per_byte, alone * 1e6, bytes / 1e3);
  }
}
