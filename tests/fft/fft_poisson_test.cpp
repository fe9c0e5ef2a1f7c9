// The FFT Poisson path against the 3D Jacobi-PCG solution of the same system −L p = b.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <iostream>
#include <random>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "operators/fv/laplacian.hpp"
#include "solvers/fft/fft_poisson.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/pcg.hpp"

using namespace miniapp;

namespace {

constexpr double tolerance = 1e-10;

fv::FlowBoundaries side_boundaries(const mesh::Mesh& m, bool outlet) {
  fv::FlowBoundaries b;
  for (const auto& patch : m.patches)
    b.by_patch.push_back({outlet && patch.name == "xmax" ? BoundaryKind::outlet : BoundaryKind::wall, {0, 0, 0}});
  return b;
}

std::vector<double> pcg_3d(const CsrMatrix& minus_l, const std::vector<double>& b, bool singular) {
  const Executor exec = Executor::cpu();
  const DeviceSell a(exec, to_sell(minus_l, 8));
  const Jacobi jacobi(exec, minus_l);
  Vector x = Vector::from_host(exec, std::vector<double>(b.size(), 0.0));
  Pcg pcg(exec, minus_l.rows);
  const auto result = pcg.solve(a, jacobi, Vector::from_host(exec, b), x,
                                {.tolerance = tolerance, .max_iterations = 5000, .singular = singular});
  REQUIRE(result.converged);
  return x.to_host();
}

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

// Solves −L p = b for a random b by the FFT path and by 3D PCG and compares.
void compare_with_pcg(const mesh::Mesh& m, const fv::FlowBoundaries* boundaries) {
  const auto geometry = mesh::compute_geometry(m);
  CsrMatrix l = fv::laplacian_matrix(m, geometry, boundaries);
  fft::Extrusion e = fft::detect_extrusion(m, geometry);
  const fft::PlaneOperator op = fft::split_extruded_operator(l, e);
  const index_t planes = e.planes;
  fft::FftPoisson solver(std::move(e), op, {.pcg = {.tolerance = tolerance, .max_iterations = 5000}});
  std::mt19937 engine(11);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> b(static_cast<std::size_t>(m.cell_count()));
  for (double& v : b) v = value(engine);
  if (op.singular) {  // a consistent right-hand side, as the projection step provides
    double mean = 0;
    for (double v : b) mean += v / static_cast<double>(b.size());
    for (double& v : b) v -= mean;
  }
  std::vector<double> p;
  const auto result = solver.solve(b, p);
  REQUIRE(result.converged);
  REQUIRE(result.frequencies.iterations.size() == static_cast<std::size_t>(planes));
  for (double& v : l.val) v = -v;
  const auto reference = pcg_3d(l, b, op.singular);
  std::vector<double> diff(p.size()), residual = reference_spmv(l, p);
  for (std::size_t i = 0; i < p.size(); ++i) diff[i] = p[i] - reference[i], residual[i] -= b[i];
  CHECK(norm(residual) <= 10 * tolerance * norm(b));
  CHECK(norm(diff) <= 1e-6 * norm(reference));
}

}  // namespace

TEST_CASE("FFT Poisson matches 3D PCG on extruded prisms with walls", "[fft]") {
  compare_with_pcg(mesh::extrude(mesh::make_tri_rect({.cells = {6, 5}, .stretch = {1.2, 0}}), {.layers = 8}), nullptr);
}

TEST_CASE("FFT Poisson matches 3D PCG on extruded prisms with walls and an outlet", "[fft]") {
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {5, 6}}), {.layers = 6, .length = 3});
  const auto b = side_boundaries(m, true);
  compare_with_pcg(m, &b);
}

TEST_CASE("FFT Poisson matches 3D PCG on extruded hexahedra with walls and an outlet", "[fft]") {
  const auto m = mesh::extrude(mesh::make_quad_rect({.cells = {7, 4}, .stretch = {0, 1.5}}), {.layers = 10});
  const auto b = side_boundaries(m, true);
  compare_with_pcg(m, &b);
}

TEST_CASE("Batched PCG solves each shifted system to its own tolerance and drops it out", "[fft]") {
  const auto m = mesh::extrude(mesh::make_quad_rect({.cells = {12, 10}}), {.layers = 2});
  const auto geometry = mesh::compute_geometry(m);
  const fft::PlaneOperator op =
      fft::split_extruded_operator(fv::laplacian_matrix(m, geometry), fft::detect_extrusion(m, geometry));
  CsrMatrix a = op.in_plane;
  for (double& v : a.val) v = -v;
  const std::vector<double> shifts{0, 0.01, 1, 100};
  const std::size_t n = static_cast<std::size_t>(a.rows), S = shifts.size();
  fft::BatchedPcg pcg(a, op.z_coupling, shifts, op.singular);
  std::mt19937 engine(3);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> b(n * S), x;
  for (double& v : b) v = value(engine);
  const auto result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 2000});
  REQUIRE(result.converged);
  for (std::size_t s = 0; s < S; ++s) {
    std::vector<double> xs(n), bs(n);
    for (std::size_t c = 0; c < n; ++c) xs[c] = x[c * S + s], bs[c] = b[c * S + s];
    auto r = reference_spmv(a, xs);
    for (std::size_t c = 0; c < n; ++c) r[c] += shifts[s] * op.z_coupling[c] * xs[c] - bs[c];
    CHECK(norm(r) <= 10 * tolerance * norm(bs));
  }
  CHECK(result.iterations.back() < result.iterations.front() / 2);
}

TEST_CASE("FFT Poisson matches 3D PCG on a fully periodic hex box (no walls)", "[fft]") {
  compare_with_pcg(mesh::make_hex_box({.cells = {5, 6, 8}, .length = {1, 2, 3}, .periodic = {true, true, true}}), nullptr);
}

// Not run by CI ([.]): wall times of one solve by each path on ~100k cells, one thread.
TEST_CASE("FFT Poisson vs 3D PCG timing on ~100k extruded cells", "[.][benchmark]") {
  for (const bool triangles : {false, true}) {
    const mesh::RectSpec rect{.cells = triangles ? std::array<index_t, 2>{36, 35} : std::array<index_t, 2>{50, 50},
                              .stretch = {0, 1.5}};
    const auto m = mesh::extrude(triangles ? mesh::make_tri_rect(rect) : mesh::make_quad_rect(rect), {.layers = 40, .length = 6});
    const auto geometry = mesh::compute_geometry(m);
    CsrMatrix l = fv::laplacian_matrix(m, geometry);
    const fft::PlaneOperator op = fft::split_extruded_operator(l, fft::detect_extrusion(m, geometry));
    fft::FftPoisson solver(fft::detect_extrusion(m, geometry), op, {.pcg = {.tolerance = 1e-8, .max_iterations = 20000}, .measure = true});
    std::mt19937 engine(1);
    std::uniform_real_distribution<double> value(-1, 1);
    std::vector<double> b(static_cast<std::size_t>(m.cell_count())), p;
    for (double& v : b) v = value(engine);
    using clock = std::chrono::steady_clock;
    auto t0 = clock::now();
    const auto result = solver.solve(b, p);
    const double fft_s = std::chrono::duration<double>(clock::now() - t0).count();
    for (double& v : l.val) v = -v;
    const Executor exec = Executor::cpu();
    const DeviceSell a(exec, to_sell(l, 8));
    const Jacobi jacobi(exec, l);
    Vector x = Vector::from_host(exec, std::vector<double>(b.size(), 0.0));
    Pcg pcg(exec, l.rows);
    const Vector rhs = Vector::from_host(exec, b);
    t0 = clock::now();
    const auto r3 = pcg.solve(a, jacobi, rhs, x, {.tolerance = 1e-8, .max_iterations = 20000, .singular = true});
    const double pcg_s = std::chrono::duration<double>(clock::now() - t0).count();
    std::cout << (triangles ? "prisms " : "hexes  ") << m.cell_count() << " cells: FFT " << fft_s << " s (max "
              << result.max_iterations << " it, k=0 " << result.frequencies.iterations[0] << " it), 3D PCG " << pcg_s
              << " s (" << r3.iterations << " it)\n";
    CHECK(result.converged);
    CHECK(r3.converged);
  }
}
