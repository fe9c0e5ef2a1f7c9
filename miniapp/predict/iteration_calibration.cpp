#include "miniapp/predict/iteration_calibration.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <ostream>
#include <string>

#include "miniapp/bench/random_vector.hpp"
#include "miniapp/bench/timing.hpp"
#include "core/error.hpp"
#include "miniapp/predict/stencil_matrix.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/aip.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/fft/batched_pcg.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::predict {
namespace {

constexpr std::uint64_t rhs_seed = 29;
constexpr index_t min_plane_rows = 64;

struct Timed {
  double seconds = 0, bytes = 0, calls = 0;
};

// Wall time and counted bytes and calls of one solve of `iterations`; the solve ends with a host read,
// so the device has finished when it returns.
Timed timed_solve(const Executor& exec, const Solve& solve, int iterations, const std::string& what) {
  exec.synchronize();
  const KernelCounters before = exec.counters();
  const auto start = std::chrono::steady_clock::now();
  const int ran = solve(iterations);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (ran != iterations)
    throw Error("calibration: " + what + ": a solve stopped after " + std::to_string(ran) + " of " +
                std::to_string(iterations) + " iterations (residual exactly zero, or a breakdown)");
  const KernelTally counted = exec.counters().since(before).total();
  return {seconds, counted.bytes, static_cast<double>(counted.calls)};
}

}  // namespace

// On a GPU a case of millions of cells runs past 2²⁰ rows, where an iteration's cost per byte is
// still falling (its launches spread over more bytes): points up to 2²² rows price it from a
// measurement, not at the largest point's rate. On the CPU they would take longer than all the others.
std::vector<index_t> default_iteration_rows(Backend backend) {
  std::vector<index_t> rows;
  for (int k = 10; k <= (backend == Backend::cpu ? 20 : 22); ++k) rows.push_back(index_t{1} << k);
  return rows;
}

std::vector<index_t> default_width_planes(Backend backend) {
  std::vector<index_t> rows;
  for (int k = 10; k <= (backend == Backend::cpu ? 14 : 16); ++k) rows.push_back(index_t{1} << k);
  return rows;
}

PcgOptions exactly(int iterations) {
  PcgOptions options;
  options.tolerance = 0;  // never met
  options.max_iterations = iterations;
  return options;
}

CostPoint iteration_point(const Executor& exec, const IterationCalibrationSettings& s, const Solve& solve,
                          const std::string& what) {
  const int extra = s.long_solve - s.short_solve;
  double bytes = 0, calls = 0;
  const double seconds = bench::median_of(1, s.repeat, [&] {
    const Timed short_run = timed_solve(exec, solve, s.short_solve, what);
    const Timed long_run = timed_solve(exec, solve, s.long_solve, what);
    bytes = (long_run.bytes - short_run.bytes) / extra;
    calls = (long_run.calls - short_run.calls) / extra;
    return (long_run.seconds - short_run.seconds) / extra;
  });
  return {bytes, std::max(seconds, 1e-8), calls};  // noise must not give a zero or negative cost
}

namespace {

CostPoint pcg_point(const Executor& exec, const IterationCalibrationSettings& s, const DeviceSell& a,
                    const Preconditioner& m, const std::string& what) {
  const Vector b = bench::random_vector(exec, a.rows(), rhs_seed);
  Vector x(exec, a.rows());
  Pcg pcg(exec, a.rows());
  return iteration_point(exec, s, [&](int iterations) {
    fill(exec, 0.0, x);
    return pcg.solve(a, m, b, x, exactly(iterations)).iterations;
  }, what);
}

// The batched PCG of `systems` systems on a plane stencil of `plane_rows` rows, with small shifts, as
// the low frequencies have.
fft::BatchedPcg batched_stencil(const Executor& exec, index_t plane_rows, index_t systems) {
  const CsrMatrix a = stencil_matrix(plane_rows, 2);
  std::vector<double> shifts;
  for (index_t k = 0; k < systems; ++k) shifts.push_back(0.01 * static_cast<double>(k));
  return fft::BatchedPcg(exec, a, std::vector<double>(a.rows, 1.0), shifts, false);
}

// The point of `pcg`'s iteration with right-hand side b, non-zero in its first `running` systems only:
// the others stop at the start, these must run every iteration.
CostPoint batched_iteration_point(const Executor& exec, const IterationCalibrationSettings& s, fft::BatchedPcg& pcg,
                                  Vector& b, index_t running, const std::string& what) {
  Vector x(exec, b.size());
  return iteration_point(exec, s, [&](int iterations) {
    fft::BatchedPcgOptions options;
    options.tolerance = 0;
    options.max_iterations = iterations;
    const fft::BatchedPcgResult r = pcg.solve(b, x, options);
    return *std::min_element(r.iterations.begin(), r.iterations.begin() + running);
  }, what);
}

CostPoint batched_point(const Executor& exec, const IterationCalibrationSettings& s, index_t rows,
                        const std::string& what) {
  // Planes of at least 64 cells, so that no system converges to an exact zero within the iterations
  // timed (fewer systems on the smallest sizes).
  const index_t systems = std::clamp<index_t>(rows / min_plane_rows / 2 * 2, 2, s.batched_systems);
  fft::BatchedPcg pcg = batched_stencil(exec, std::max<index_t>(min_plane_rows, rows / systems), systems);
  Vector b = bench::random_vector(exec, pcg.rows() * systems, rhs_seed);
  return batched_iteration_point(exec, s, pcg, b, systems, what);
}

}  // namespace

std::array<std::optional<CostCurve>, iteration_unit_count> calibrate_iterations(
    const Executor& exec, const IterationCalibrationSettings& settings, std::ostream& log) {
  std::array<std::vector<CostPoint>, iteration_unit_count> points;
  const auto add = [&](IterationUnit unit, const CostPoint& p) { points[static_cast<int>(unit)].push_back(p); };
  for (const index_t rows : settings.rows.empty() ? default_iteration_rows(exec.backend()) : settings.rows) {
    log << "  Poisson iterations, about " << rows << " rows\n" << std::flush;
    const CsrMatrix a = stencil_matrix(rows);
    const index_t h = exec.default_slice_height();
    const DeviceSell sell(exec, to_sell(a, h));
    const std::string where = " iteration on " + std::to_string(a.rows) + " rows";
    add(IterationUnit::pcg_jacobi, pcg_point(exec, settings, sell, Jacobi(exec, a), "the pcg_jacobi" + where));
    add(IterationUnit::pcg_aip1,
        pcg_point(exec, settings, sell, Aip(exec, a, 1, h, AipForm::two_pass), "the pcg_aip1" + where));
    // The product on the plane stencil: 7 entries a row, as where the byte count picks it (one-layer
    // meshes; tetrahedra, 7.4), not the 13 of the 3D stencil's product, whose longer rows cost more
    // per byte on small meshes (each row's chain of gathers).
    const CsrMatrix plane = stencil_matrix(rows, 2);
    add(IterationUnit::pcg_aip1_product,
        pcg_point(exec, settings, DeviceSell(exec, to_sell(plane, h)), Aip(exec, plane, 1, h, AipForm::product),
                  "the pcg_aip1_product iteration on " + std::to_string(plane.rows) + " rows"));
    // At least one level above the coarsest: a matrix of at most coarse_rows would be solved exactly
    // by the coarse inverse (a solve that stops early, and not a V-cycle). The finest level is the
    // PCG's own matrix, as in the time loop: a second copy would leave the cache at fewer bytes per
    // iteration than a case's hierarchy does.
    const amg::AmgOptions amg{.coarse_rows = std::clamp<index_t>(a.rows / 8, 1, amg::AmgOptions{}.coarse_rows)};
    add(IterationUnit::pcg_amg,
        pcg_point(exec, settings, sell, Amg(exec, a, amg, h, &sell), "the pcg_amg" + where));
    add(IterationUnit::batched_pcg, batched_point(exec, settings, rows,
                                                  "the batched_pcg iteration on about " + std::to_string(rows) +
                                                      " rows × systems"));
  }
  std::array<std::optional<CostCurve>, iteration_unit_count> curves;
  for (int u = 0; u < iteration_unit_count; ++u) curves[u] = CostCurve(points[u]);
  return curves;
}

BatchedCosts calibrate_batched_costs(const Executor& exec, const IterationCalibrationSettings& settings,
                                     std::ostream& log) {
  const index_t systems = settings.batched_systems;
  BatchedCosts costs;
  for (const index_t plane : settings.width_planes.empty() ? default_width_planes(exec.backend()) : settings.width_planes) {
    log << "  batched iterations by the systems they run over and with an AMG block, planes of about " << plane
        << " rows\n" << std::flush;
    fft::BatchedPcg pcg = batched_stencil(exec, std::max(plane, min_plane_rows), systems);
    const double rows = static_cast<double>(pcg.rows());
    const std::vector<double> rhs = bench::random_vector(exec, pcg.rows() * systems, rhs_seed).to_host();
    const std::string where = " systems on " + std::to_string(pcg.rows()) + " rows";
    std::vector<WidthPoint> widths;
    CostPoint whole;  // the iteration over all the systems
    for (index_t width = systems;; width = std::max<index_t>(1, width / 2)) {
      std::vector<double> first = rhs;
      for (std::size_t i = 0; i < first.size(); ++i)
        if (static_cast<index_t>(i) % systems >= width) first[i] = 0;
      Vector b = Vector::from_host(exec, first);
      const CostPoint p = batched_iteration_point(
          exec, settings, pcg, b, width,
          "the batched iteration over " + std::to_string(width) + " of " + std::to_string(systems) + where);
      if (width == systems) whole = p;
      widths.push_back({rows, static_cast<double>(width), p.seconds / p.bytes / (whole.seconds / whole.bytes)});
      if (width == 1) break;
    }
    costs.widths.insert(costs.widths.end(), widths.rbegin(), widths.rend());
    // The block's apply timed alone, not as the small difference of two iterations' times.
    fft::FrequencyPreconditioner& m = pcg.preconditioner();
    m.use_leading_blocks(fft::LeadingPreconditioner::amg, 1);
    const Vector r = Vector::from_host(exec, rhs);
    Vector z(exec, r.size());
    const fft::SystemRange block{0, m.block_systems()};
    const KernelCounters before = exec.counters();
    m.apply_leading(r, z, block);
    const double bytes = exec.counters().since(before).total().bytes;
    const double seconds =
        bench::median_call_seconds(exec, 1, settings.repeat, [&] { m.apply_leading(r, z, block); }, 8);
    costs.amg_blocks.push_back({rows, static_cast<double>(m.block_systems()), seconds / bytes / (whole.seconds / whole.bytes)});
  }
  return costs;
}

}  // namespace miniapp::predict
