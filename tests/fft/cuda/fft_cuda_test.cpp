// The CUDA FFT Poisson path against the CPU reference: every batched kernel on random data larger than
// several blocks (sub-ranges, untouched systems outside them), cuFFT against FFTW, and whole solves.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "solvers/fft/batched_cg_scalars.hpp"
#include "solvers/fft/batched_kernels.hpp"
#include "solvers/fft/fft_poisson.hpp"
#include "tests/fft/fft_test_support.hpp"
#include "tests/fft/tile_span_check.hpp"

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
  const fft::PlaneOperator op = test::minus_plane_operator(61, 49);  // 2989 rows: odd, as some kernels take rows in pairs
  std::vector<double> shifts;
  for (int s = 0; s < 34; ++s) shifts.push_back(0.1 * (s / 2));  // 34 systems: 101626 entries
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
  CHECK(both([&](const Executor& e, const fft::ShiftedSystems&, Vector&, Vector& b, Vector& s) {
          Vector r = Vector::from_host(e, test::random_vector(size, 5));
          fft::batched_direction(e, s, r, b, S, range);
          fft::batched_subtract_mean(e, s, 7.0, b, S, range);
        }) <= 1e-14);
  // Kernels that form column sums, over the first `owned` rows (all, or a rank's share), then summed.
  const index_t owned = GENERATE_COPY(as<index_t>{}, n, n - 700);
  const auto sums_of = [&](const Executor& e, const Vector& partials) {
    Vector out = Vector::from_host(e, nan_outside(scalars, S, range));
    fft::batched_column_sums(e, partials, n, S, range, out);
    return out.to_host();
  };
  for (const bool with_v : {true, false}) {  // column sums, of products or plain
    std::vector<double> sums[2];
    for (int k = 0; k < 2; ++k) {
      const Executor& e = k == 0 ? cpu : gpu;
      Vector u = Vector::from_host(e, x), v = Vector::from_host(e, test::random_vector(size, 6));
      Vector partials(e, fft::batched_partials_size(e.backend(), n, S));
      fft::batched_dot_partials(e, u, with_v ? &v : nullptr, S, range, owned, partials);
      sums[k] = sums_of(e, partials);
    }
    CHECK(difference(sums[1], sums[0]) <= 1e-12);
  }
  {  // the SpMV with pᵀq
    std::vector<double> y[2], sums[2];
    for (int k = 0; k < 2; ++k) {
      const Executor& e = k == 0 ? cpu : gpu;
      const fft::ShiftedSystems& m = k == 0 ? on_cpu : on_gpu;
      Vector p = Vector::from_host(e, x), q = Vector::from_host(e, y0), partials(e, fft::batched_partials_size(e.backend(), n, S));
      fft::batched_shifted_spmv_dot(e, m.view(), p, q, S, range, owned, partials);
      y[k] = q.to_host();
      sums[k] = sums_of(e, partials);
    }
    CHECK(difference(y[1], y[0]) <= 1e-13);
    CHECK(difference(sums[1], sums[0]) <= 1e-12);
  }
  {  // the CG update with Jacobi on the upper part of the range, r·z and r·r, then the directions
    const index_t jacobi_begin = range.begin + range.size() / 2;
    std::vector<double> out[2][3], sums[2][2];
    for (int k = 0; k < 2; ++k) {
      const Executor& e = k == 0 ? cpu : gpu;
      const fft::ShiftedSystems& m = k == 0 ? on_cpu : on_gpu;
      Vector alpha = Vector::from_host(e, scalars), p = Vector::from_host(e, x);
      Vector q = Vector::from_host(e, test::random_vector(size, 4)), xs = Vector::from_host(e, test::random_vector(size, 10));
      Vector r = Vector::from_host(e, test::random_vector(size, 5)), z = Vector::from_host(e, y0);
      Vector rz(e, fft::batched_partials_size(e.backend(), n, S)), rr(e, fft::batched_partials_size(e.backend(), n, S));
      fft::batched_cg_update_jacobi(e, m.view(), alpha, p, q, xs, r, S, range, jacobi_begin, owned, rz, rr);
      out[k][0] = xs.to_host();
      out[k][1] = r.to_host();
      fft::batched_direction_jacobi(e, m.view(), alpha, Vector::from_host(e, x), r, z, S, range, jacobi_begin);
      out[k][2] = z.to_host();  // NaN (untouched) outside the range
      sums[k][0] = sums_of(e, rz);
      sums[k][1] = sums_of(e, rr);
    }
    for (int v = 0; v < 3; ++v) CHECK(difference(out[1][v], out[0][v]) <= 1e-14);
    for (int v = 0; v < 2; ++v) CHECK(difference(sums[1][v], sums[0][v]) <= 1e-12);
    for (index_t s = range.begin; s < jacobi_begin; ++s) CHECK(sums[0][0][s] == 0.0);  // AIP systems: r·z later
  }
}

TEST_CASE("The CUDA SpMV with pᵀq over two spans of tiles writes what one call writes, bit for bit", "[fft][cuda]") {
  const fft::PlaneOperator op = test::minus_plane_operator(61, 49);
  const index_t n = op.in_plane.rows, tiles = fft::row_tiles(Backend::cuda, n).count;
  const index_t split = GENERATE_COPY(index_t{1}, tiles / 2);
  CAPTURE(split);
  test::check_two_tile_spans(gpu_executor(), op, {0, 0.3, 0.3, 1.2, 2.5, 2.5, 4.0, 4.0}, n - 300, {1, 7}, split);
}

TEST_CASE("The CUDA batched SpMV of dense rows (a warp per row) matches the CPU", "[fft][cuda][amg]") {
  const Executor cpu = Executor::cpu(), gpu = gpu_executor();
  CsrMatrix d;  // as an AMG block's coarse inverse: dense rows, longer than fft::batched_warp_row_entries
  d.rows = d.cols = 150;
  const auto values = test::random_vector(150 * 150, 12);
  d.row_ptr.clear();
  d.row_ptr.push_back(0);
  for (index_t i = 0; i < d.rows; ++i) {
    for (index_t j = 0; j < d.cols; ++j) {
      d.col.push_back(j);
      d.val.push_back(values[static_cast<std::size_t>(i * d.cols + j)]);
    }
    d.row_ptr.push_back(d.row_ptr.back() + d.cols);
  }
  REQUIRE(d.nnz() >= fft::batched_warp_row_entries * d.rows);
  const index_t S = 34;
  const auto range = GENERATE(as<fft::SystemRange>{}, fft::SystemRange{0, 34}, fft::SystemRange{5, 11}, fft::SystemRange{2, 4});
  const std::size_t size = static_cast<std::size_t>(d.rows) * S;
  const auto x = test::random_vector(size, 13), y0 = nan_outside(test::random_vector(size, 14), S, range);
  std::vector<double> y[2];
  for (int k = 0; k < 2; ++k) {
    const Executor& e = k == 0 ? cpu : gpu;
    Vector xv = Vector::from_host(e, x), yv = Vector::from_host(e, y0);
    fft::batched_spmv(e, DeviceCsr(e, d), xv, yv, S, range);
    y[k] = yv.to_host();
  }
  CHECK(difference(y[1], y[0]) <= 1e-13);
}

TEST_CASE("The CUDA batched start sets the same state as the CPU's", "[fft][cuda]") {
  const Executor cpu = Executor::cpu(), gpu = gpu_executor();
  constexpr index_t S = 300;  // more than one block
  std::vector<double> sums = test::random_vector(3 * S, 12);
  for (double& v : sums) v = std::abs(v);
  sums[0] = 0;               // a zero right-hand side
  sums[2 * S + 1] = 1e-30;   // one already within the tolerance
  std::vector<double> state[2];
  for (int k = 0; k < 2; ++k) {
    const Executor& e = k == 0 ? cpu : gpu;
    Vector s(e, fft::batched_cg::slot_count * S);
    fft::batched_start(e, s, Vector::from_host(e, sums), 1e-8, S);
    state[k] = s.to_host();
  }
  CHECK(state[1] == state[0]);
}

TEST_CASE("cuFFT transforms equal FFTW's and leave the entries past each line's modes", "[fft][cuda]") {
  const Executor cpu = Executor::cpu(), gpu = gpu_executor();
  // 38 = 2 · 19: cuFFT's plans for it use the shared work area. The CPU's lines are n + 2 doubles
  // apart, cuFFT's mode_stride(cuda, n): 2 and 8 unused entries a line at 64 and 38.
  const index_t lines = 1001, n = GENERATE(64, 38);
  CAPTURE(n);
  const auto real = test::random_vector(static_cast<std::size_t>(lines) * n, 7);
  constexpr double untouched = 12345.0;
  std::vector<double> modes[2], back[2], after[2];  // modes: line by line, n + 2 doubles each
  const index_t stride = fft::mode_stride(Backend::cuda, n);
  for (int b = 0; b < 2; ++b) {
    const Executor& e = b == 0 ? cpu : gpu;
    const index_t line = fft::mode_stride(e.backend(), n);
    auto t = fft::make_periodic_fft(e, lines, n, false);
    Vector r = Vector::from_host(e, real), m = Vector::from_host(e, std::vector<double>(lines * line, untouched));
    t->forward(r, m);
    const std::vector<double> laid_out = m.to_host();
    for (index_t c = 0; c < lines; ++c)
      modes[b].insert(modes[b].end(), laid_out.begin() + c * line, laid_out.begin() + c * line + n + 2);
    t->backward(m, r);  // overwrites the modes
    back[b] = r.to_host();
    if (b == 1) {
      after[0] = laid_out;
      after[1] = m.to_host();
    }
  }
  CHECK(difference(modes[1], modes[0]) <= 1e-13);
  CHECK(difference(back[1], back[0]) <= 1e-13);
  for (const std::vector<double>& gpu_modes : after)  // after the forward and after the backward
    for (index_t c = 0; c < lines; ++c)
      for (index_t s = n + 2; s < stride; ++s) CHECK(gpu_modes[c * stride + s] == untouched);
}

// cuFFT's work area is one executor array shared by the two plans: counted, and sized before the
// transform is made (what the memory estimate reads). cuFFT plans lengths whose prime factors are
// small without one, and a length with a large prime factor (38 = 2 · 19, 194 = 2 · 97) with one.
TEST_CASE("cuFFT's work area is the executor allocation its size says", "[fft][cuda][memory]") {
  const Executor gpu = gpu_executor();
  const index_t lines = GENERATE(1001, 16384);
  const index_t n = GENERATE(8, 64, 256, 38, 194);
  CAPTURE(lines, n);
  const std::size_t work = fft::periodic_fft_work_bytes(gpu, lines, n), before = gpu.bytes_allocated();
  const auto t = fft::make_periodic_fft(gpu, lines, n, false);
  CHECK(gpu.bytes_allocated() - before == work);
  if (n == 38 || n == 194) CHECK(work > 0);
  CHECK(fft::periodic_fft_work_bytes(Executor::cpu(), lines, n) == 0);
}

TEST_CASE("The CUDA FFT Poisson solve equals the CPU one, cold and warm", "[fft][cuda][amg]") {
  const Executor cpu = Executor::cpu(), gpu = gpu_executor();
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {40, 36}, .stretch = {1.2, 0}}), {.layers = 32});
  const auto geometry = mesh::compute_geometry(m);
  const fv::FlowBoundaries walls = test::side_boundaries(m, GENERATE(false, true));
  const CsrMatrix l = fv::laplacian_matrix(m, geometry, &walls);
  const fft::Extrusion e = fft::detect_extrusion(m, geometry);
  const fft::PlaneOperator op = fft::split_extruded_operator(l, e);
  fft::FftPoissonOptions options;
  options.pcg = {.tolerance = 1e-10, .max_iterations = 5000};
  options.preconditioning.leading_blocks = GENERATE(0, 2);
  options.preconditioning.leading = GENERATE(fft::LeadingPreconditioner::aip, fft::LeadingPreconditioner::amg);
  options.preconditioning.amg.coarse_rows = 40;  // several levels on this small plane
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
