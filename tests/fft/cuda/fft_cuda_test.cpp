// The CUDA FFT Poisson path against the CPU reference: every batched kernel on random data larger than
// several blocks (sub-ranges, untouched systems outside them), cuFFT against FFTW, and whole solves.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "solvers/fft/fft_poisson.hpp"
#include "tests/fft/fft_test_support.hpp"

using namespace miniapp;

namespace {

// Made on first use: main has checked that a device is visible by then.
const Executor& gpu_executor() {
  static const Executor exec = Executor::cuda();
  return exec;
}

// max |a − b| / max |b|, infinite on a NaN mismatch (NaN in both counts as equal: untouched entries).
double difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, size = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i])) {
      if (std::isnan(a[i]) != std::isnan(b[i])) return std::numeric_limits<double>::infinity();
      continue;
    }
    diff = std::max(diff, std::abs(a[i] - b[i]));
    size = std::max(size, std::abs(b[i]));
  }
  return size > 0 ? diff / size : diff;
}

std::vector<double> nan_outside(std::vector<double> v, std::size_t systems, fft::SystemRange range) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (static_cast<index_t>(i % systems) < range.begin || static_cast<index_t>(i % systems) >= range.end)
      v[i] = std::numeric_limits<double>::quiet_NaN();
  return v;
}

}  // namespace

TEST_CASE("CUDA batched kernels match the CPU reference", "[fft][cuda]") {
  const Executor cpu = Executor::cpu(), gpu = gpu_executor();
  const fft::PlaneOperator op = test::minus_plane_operator(60, 50);  // 3000 rows
  std::vector<double> shifts;
  for (int s = 0; s < 34; ++s) shifts.push_back(0.1 * (s / 2));  // 34 systems: 102000 entries
  const index_t S = static_cast<index_t>(shifts.size()), n = op.in_plane.rows;
  const fft::ShiftedSystems on_cpu(cpu, op.in_plane, op.z_coupling, shifts), on_gpu(gpu, op.in_plane, op.z_coupling, shifts);
  const auto range = GENERATE(as<fft::SystemRange>{}, fft::SystemRange{0, 34}, fft::SystemRange{5, 18}, fft::SystemRange{0, 1});
  const std::size_t size = static_cast<std::size_t>(n) * S;
  const auto x = test::random_vector(size, 1), y0 = nan_outside(test::random_vector(size, 2), S, range);
  const auto scalars = test::random_vector(static_cast<std::size_t>(S), 3);
  // Runs `kernel` on both executors from the same inputs and compares the output vector.
  const auto both = [&](auto kernel) {
    Vector xc = Vector::from_host(cpu, x), yc = Vector::from_host(cpu, y0), sc = Vector::from_host(cpu, scalars);
    Vector xg = Vector::from_host(gpu, x), yg = Vector::from_host(gpu, y0), sg = Vector::from_host(gpu, scalars);
    kernel(cpu, on_cpu, xc, yc, sc);
    kernel(gpu, on_gpu, xg, yg, sg);
    return difference(yg.to_host(), yc.to_host());
  };
  CHECK(both([&](const Executor& e, const fft::ShiftedSystems& m, Vector& a, Vector& b, Vector&) {
          fft::batched_shifted_spmv(e, m.view(), a, b, S, range);
        }) <= 1e-13);
  CHECK(both([&](const Executor& e, const fft::ShiftedSystems& m, Vector& a, Vector& b, Vector&) {
          fft::batched_spmv(e, m.a, a, b, S, range);
        }) <= 1e-13);
  CHECK(both([&](const Executor& e, const fft::ShiftedSystems& m, Vector& a, Vector& b, Vector&) {
          fft::batched_jacobi(e, m.view(), a, b, S, range);
        }) <= 1e-14);
  CHECK(both([&](const Executor& e, const fft::ShiftedSystems&, Vector& a, Vector& b, Vector& s) {
          Vector q = Vector::from_host(e, test::random_vector(size, 4)), r = Vector::from_host(e, test::random_vector(size, 5));
          fft::batched_cg_update(e, s, a, q, b, r, S, range);
          fft::batched_direction(e, s, r, b, S, range);
          fft::batched_add(e, s, b, S, range);
        }) <= 1e-14);
  for (const bool with_v : {true, false}) {  // column sums, of products or plain
    std::vector<double> sums[2];
    for (int k = 0; k < 2; ++k) {
      const Executor& e = k == 0 ? cpu : gpu;
      Vector u = Vector::from_host(e, x), v = Vector::from_host(e, test::random_vector(size, 6));
      Vector scratch(e, fft::batched_dot_scratch(e, S)), out = Vector::from_host(e, nan_outside(scalars, S, range));
      fft::batched_dot(e, u, with_v ? &v : nullptr, S, range, scratch, out);
      sums[k] = out.to_host();
    }
    CHECK(difference(sums[1], sums[0]) <= 1e-12);
  }
}

TEST_CASE("cuFFT transforms equal FFTW's", "[fft][cuda]") {
  const Executor cpu = Executor::cpu(), gpu = gpu_executor();
  const index_t lines = 1001, n = 64;
  const auto real = test::random_vector(static_cast<std::size_t>(lines) * n, 7);
  std::vector<double> modes[2], back[2];
  for (int b = 0; b < 2; ++b) {
    const Executor& e = b == 0 ? cpu : gpu;
    auto t = fft::make_periodic_fft(e, lines, n, false);
    Vector r = Vector::from_host(e, real), m(e, lines * (n + 2));
    t->forward(r, m);
    modes[b] = m.to_host();
    t->backward(m, r);
    back[b] = r.to_host();
  }
  CHECK(difference(modes[1], modes[0]) <= 1e-13);
  CHECK(difference(back[1], back[0]) <= 1e-13);
}

TEST_CASE("The CUDA FFT Poisson solve equals the CPU one, cold and warm", "[fft][cuda]") {
  const Executor cpu = Executor::cpu(), gpu = gpu_executor();
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {40, 36}, .stretch = {1.2, 0}}), {.layers = 32});
  const auto geometry = mesh::compute_geometry(m);
  const fv::FlowBoundaries walls = test::side_boundaries(m, GENERATE(false, true));
  const CsrMatrix l = fv::laplacian_matrix(m, geometry, &walls);
  const fft::Extrusion e = fft::detect_extrusion(m, geometry);
  const fft::PlaneOperator op = fft::split_extruded_operator(l, e);
  fft::FftPoissonOptions options;
  options.pcg = {.tolerance = 1e-10, .max_iterations = 5000};
  options.preconditioning.aip_blocks = GENERATE(0, 2);
  fft::FftPoisson on_cpu(cpu, e, op, options), on_gpu(gpu, e, op, options);
  const std::size_t cells = static_cast<std::size_t>(m.cell_count());
  const auto b = test::random_vector(cells, 8, op.singular), start = test::random_vector(cells, 9);
  for (const bool warm : {false, true}) {
    Vector pc = Vector::from_host(cpu, start), pg = Vector::from_host(gpu, start);
    const auto rc = on_cpu.solve(Vector::from_host(cpu, b), pc, warm);
    const auto rg = on_gpu.solve(Vector::from_host(gpu, b), pg, warm);
    REQUIRE(rc.converged);
    REQUIRE(rg.converged);
    CHECK(difference(pg.to_host(), pc.to_host()) <= 1e-8);
    for (std::size_t s = 0; s < rc.frequencies.iterations.size(); ++s)
      CHECK(std::abs(rg.frequencies.iterations[s] - rc.frequencies.iterations[s]) <= 1);
  }
}
