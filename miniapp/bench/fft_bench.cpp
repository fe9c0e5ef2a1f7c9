// miniapp bench fft: the FFT Poisson path against 3D AIP-CG, the unified batched SpMV against one SpMV
// per frequency, and the iterations per frequency, on virtually extruded triangle meshes.
#include "miniapp/bench/fft_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ostream>
#include <random>

#include "core/parallel_exceptions.hpp"
#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "miniapp/bench/timing.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/kernels/spmv.hpp"
#include "solvers/aip.hpp"
#include "solvers/fft/fft_poisson.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::bench {

namespace {

struct ExtrudedProblem {
  fft::Extrusion extrusion;
  fft::PlaneOperator op;
};

// L2d and w of a unit square of about `triangles` triangles extruded with dz = 1 / planes: from a
// two-layer mesh, whose in-plane operator and z couplings are those of the Nper-layer one.
ExtrudedProblem make_problem(long long triangles, index_t planes) {
  mesh::RectSpec rect;
  const auto n = static_cast<index_t>(std::max(2.0, std::round(std::sqrt(triangles / 2.0))));
  rect.cells = {n, n};
  rect.stretch = {1.2, 0};  // uneven cells, as in a real 2D mesh
  mesh::ExtrusionSpec layers;
  layers.layers = 2;
  layers.length = 2.0 / planes;
  const mesh::Mesh m = mesh::extrude(mesh::make_tri_rect(rect), layers);
  const auto geometry = mesh::compute_geometry(m);
  const fft::Extrusion two = fft::detect_extrusion(m, geometry);
  ExtrudedProblem p{{}, fft::split_extruded_operator(fv::laplacian_matrix(m, geometry), two)};
  fft::Extrusion& e = p.extrusion;
  e.planes = planes;
  e.plane_cells = two.plane_cells;
  e.dz = two.dz;
  for (index_t i = 0; i < planes * two.plane_cells; ++i) {
    e.cell_2d.push_back(i / planes);
    e.plane.push_back(i % planes);
    e.cell_3d.push_back(i);  // the 3D vectors are in 1D-block order already
  }
  return p;
}

// −(L2d ⊗ I + diag(w) ⊗ Lper), row (c, k) at c · Nper + k, columns sorted per row.
CsrMatrix minus_laplacian_3d(const fft::PlaneOperator& op, index_t planes) {
  const CsrMatrix& a = op.in_plane;
  CsrMatrix l;
  l.rows = l.cols = checked_index(static_cast<std::size_t>(a.rows) * planes, "3D rows");
  l.row_ptr.assign(static_cast<std::size_t>(l.rows) + 1, 0);
  for (index_t r = 0; r < l.rows; ++r) l.row_ptr[r + 1] = l.row_ptr[r] + a.row_length(r / planes) + 2;
  l.col.resize(static_cast<std::size_t>(l.row_ptr.back()));
  l.val.resize(l.col.size());
  ParallelExceptions errors;  // the rows' allocations
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < a.rows; ++c)
    errors.guard([&] {
      std::vector<std::pair<index_t, double>> row;
      for (index_t k = 0; k < planes; ++k) {
        row.clear();
        for (index_t i = a.row_ptr[c]; i < a.row_ptr[c + 1]; ++i)
          row.emplace_back(a.col[i] * planes + k, -(a.val[i] - (a.col[i] == c ? 2 * op.z_coupling[c] : 0.0)));
        row.emplace_back(c * planes + (k + 1) % planes, -op.z_coupling[c]);
        row.emplace_back(c * planes + (k + planes - 1) % planes, -op.z_coupling[c]);
        std::sort(row.begin(), row.end());
        index_t at = l.row_ptr[c * planes + k];
        for (const auto& [col, val] : row) l.col[at] = col, l.val[at++] = val;
      }
    });
  errors.rethrow();
  return l;
}

std::vector<double> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> v(n);
  double mean = 0;
  for (double& x : v) mean += (x = value(engine)) / static_cast<double>(n);
  for (double& x : v) x -= mean;  // consistent with the singular −L
  return v;
}

struct SolveTiming {
  double seconds = 0;
  int iterations = 0;
};

// Median wall time of `repeat` solves of b + 0.01 i δ, i = 1..repeat, each from the previous
// solution (a time loop's warm start), after one untimed cold solve of b. solve(rhs, x) → iterations.
template <class Solve>
SolveTiming time_solves(const Executor& exec, const std::vector<double>& b, int repeat, Solve&& solve) {
  const std::vector<double> delta = random_vector(b.size(), 99);
  Vector rhs = Vector::from_host(exec, b), x = Vector::from_host(exec, std::vector<double>(b.size(), 0.0));
  solve(rhs, x);
  std::vector<std::pair<double, int>> samples;
  std::vector<double> host(b.size());
  for (int i = 1; i <= repeat; ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) host[j] = b[j] + 0.01 * i * delta[j];
    rhs.copy_from_host(host);
    exec.synchronize();
    const auto start = std::chrono::steady_clock::now();
    const int iterations = solve(rhs, x);
    exec.synchronize();
    samples.emplace_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), iterations);
  }
  std::sort(samples.begin(), samples.end());
  return {samples[samples.size() / 2].first, samples[samples.size() / 2].second};
}

// Unified: one batched SpMV over all systems. Naive: one sELL SpMV per real system (k = 0, then Re
// and Im of k = 1..Nper/2 − 1, then Nper/2), each with its own matrix A + σ_k W.
void time_spmv(const Executor& exec, const fft::ShiftedSystems& sys, index_t planes, int repeat, FftBenchRecord& r) {
  // Rows `stride` apart, as the solver lays them out (on CUDA padded past the S systems).
  const index_t S = sys.systems(), stride = sys.stride(), n = sys.rows();
  const Vector x = Vector::from_host(exec, random_vector(static_cast<std::size_t>(n) * stride, 5));
  Vector y(exec, x.size());
  const auto unified = [&] { fft::batched_shifted_spmv(exec, sys.view(), x, y, stride, {0, S}); };
  KernelCounters before = exec.counters();
  unified();
  r.unified_spmv_bytes = exec.counters().since(before).tally(KernelKind::spmv).bytes;
  r.unified_spmv_seconds = median_call_seconds(exec, 3, repeat, unified, bench_queued_calls);
  std::vector<DeviceSell> matrices;
  for (index_t k = 0; k <= planes / 2; ++k)
    matrices.emplace_back(exec, to_sell(fft::shifted_matrix(sys.host_a, sys.host_w, sys.host_shifts[2 * k]),
                                        exec.default_slice_height()));
  std::vector<Vector> xs, ys;
  for (index_t s = 0; s < planes; ++s) {
    xs.push_back(Vector::from_host(exec, random_vector(static_cast<std::size_t>(n), 6 + s)));
    ys.emplace_back(exec, n);
  }
  const auto naive = [&] {
    for (index_t s = 0; s < planes; ++s) spmv(exec, matrices[(s + 1) / 2], xs[s], ys[s]);
  };
  before = exec.counters();
  naive();
  r.naive_spmv_bytes = exec.counters().since(before).tally(KernelKind::spmv).bytes;
  r.naive_spmv_seconds = median_call_seconds(exec, 3, repeat, naive, bench_queued_calls);
}

// Iterations per frequency of a cold solve of a random b with m AIP blocks.
std::vector<int> frequency_iterations(const Executor& exec, fft::FftPoisson& poisson, int aip_blocks,
                                      const std::vector<double>& b) {
  poisson.batched_pcg().preconditioner().use_aip_blocks(aip_blocks);
  Vector p(exec, static_cast<index_t>(b.size()));
  const auto result = poisson.solve(Vector::from_host(exec, b), p);
  return fft::iterations_per_frequency(result.frequencies);
}

FftBenchRecord bench_one(const Executor& exec, long long triangles, index_t planes, const FftBenchSettings& settings,
                         std::ostream& log) {
  ExtrudedProblem problem = make_problem(triangles, planes);
  FftBenchRecord r;
  r.plane_cells = problem.extrusion.plane_cells;
  r.planes = planes;
  log << "  " << r.plane_cells << " triangles x " << planes << " planes: FFT set-up\n";
  fft::FftPoissonOptions options;
  options.pcg = {settings.tolerance, 20000};
  const auto start = std::chrono::steady_clock::now();
  fft::FftPoisson poisson(exec, problem.extrusion, problem.op, options);
  r.fft_setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.preconditioner = poisson.configuration();
  const std::vector<double> b = random_vector(problem.extrusion.cell_3d.size(), 7);
  const SolveTiming fft_time = time_solves(exec, b, settings.repeat, [&](const Vector& rhs, Vector& x) {
    return poisson.solve(rhs, x, true).max_iterations;
  });
  r.fft_seconds = fft_time.seconds, r.fft_iterations = fft_time.iterations;
  log << "  SpMV unified vs per frequency\n";
  time_spmv(exec, poisson.batched_pcg().shifted_systems(), planes, settings.repeat, r);
  const int tuned = poisson.batched_pcg().preconditioner().aip_blocks();
  r.iterations_jacobi = frequency_iterations(exec, poisson, 0, b);
  r.iterations_tuned = frequency_iterations(exec, poisson, tuned, b);
  log << "  3D AIP-CG set-up\n";
  const CsrMatrix minus_l = minus_laplacian_3d(problem.op, planes);
  const DeviceSell a(exec, to_sell(minus_l, exec.default_slice_height()));
  const Aip aip(exec, minus_l, 1, exec.default_slice_height());
  Pcg pcg(exec, minus_l.rows);
  const PcgOptions pcg_options{settings.tolerance, 20000, true, 0};
  const SolveTiming cg_time = time_solves(exec, b, settings.repeat, [&](const Vector& rhs, Vector& x) {
    return pcg.solve(a, aip, rhs, x, pcg_options).iterations;
  });
  r.aip_cg_seconds = cg_time.seconds, r.aip_cg_iterations = cg_time.iterations;
  return r;
}

}  // namespace

std::vector<FftBenchRecord> run_fft_bench(const Executor& exec, const FftBenchSettings& settings, std::ostream& log) {
  std::vector<FftBenchRecord> records;
  for (const long long triangles : settings.plane_cells)
    for (const index_t planes : settings.planes) records.push_back(bench_one(exec, triangles, planes, settings, log));
  return records;
}

}  // namespace miniapp::bench
