// Extrusion detection, the split L = L2d ⊗ I + diag(w) ⊗ Lper and the eigenvalues of Lper.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <string>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "operators/fv/laplacian.hpp"
#include "solvers/fft/extrusion.hpp"
#include "tests/fft/fft_test_support.hpp"
#include "tests/thread_counts.hpp"

using namespace miniapp;
using Catch::Matchers::Contains;

namespace {

// (L2d ⊗ I + diag(w) ⊗ Lper) x with Lper the periodic stencil [1, −2, 1], x in 3D cell order.
std::vector<double> apply_split(const fft::Extrusion& e, const fft::PlaneOperator& op, const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  for (index_t c = 0; c < e.plane_cells; ++c)
    for (index_t k = 0; k < e.planes; ++k) {
      const index_t i = e.at(c, k);
      for (index_t n = op.in_plane.row_ptr[c]; n < op.in_plane.row_ptr[c + 1]; ++n)
        y[i] += op.in_plane.val[n] * x[e.at(op.in_plane.col[n], k)];
      const double up = x[e.at(c, (k + 1) % e.planes)], down = x[e.at(c, (k + e.planes - 1) % e.planes)];
      y[i] += op.z_coupling[c] * (up - 2 * x[i] + down);
    }
  return y;
}

void check_reconstruction(const mesh::Mesh& m, const fv::FlowBoundaries* boundaries) {
  const auto geometry = mesh::compute_geometry(m);
  const CsrMatrix l = fv::laplacian_matrix(m, geometry, boundaries);
  const fft::Extrusion e = fft::detect_extrusion(m, geometry);
  const fft::PlaneOperator op = fft::split_extruded_operator(l, e);
  CHECK(op.singular == !(boundaries && boundaries->has_pressure_outlet()));
  const auto x = test::random_vector(static_cast<std::size_t>(m.cell_count()), 5);
  const auto expected = reference_spmv(l, x), split = apply_split(e, op, x);
  double err = 0, size = 0;
  for (std::size_t i = 0; i < x.size(); ++i) err = std::max(err, std::abs(expected[i] - split[i])), size = std::max(size, std::abs(expected[i]));
  CHECK(err <= 1e-12 * size);
}

}  // namespace

TEST_CASE("An extruded triangle mesh is detected plane by plane", "[fft]") {
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {4, 3}}), {.layers = 6, .length = 2.4});
  const auto geometry = mesh::compute_geometry(m);
  const fft::Extrusion e = fft::detect_extrusion(m, geometry);
  REQUIRE(e.planes == 6);
  REQUIRE(e.plane_cells == 24);
  CHECK(e.dz == Approx(0.4));
  std::vector<int> seen(static_cast<std::size_t>(m.cell_count()), 0);
  for (index_t c = 0; c < e.plane_cells; ++c)
    for (index_t k = 0; k < e.planes; ++k) {
      const index_t i = e.at(c, k), j = e.at(c, (k + 1) % e.planes);
      ++seen[i];
      CHECK(e.cell_2d[i] == c);
      CHECK(e.plane[i] == k);
      const Vec3 a = geometry.cell_centroid[i], b = geometry.cell_centroid[j];
      CHECK(b[0] == Approx(a[0]));
      CHECK(b[1] == Approx(a[1]));
      CHECK(b[2] - a[2] == Approx(k + 1 < e.planes ? 0.4 : 0.4 - 2.4));
    }
  for (int s : seen) CHECK(s == 1);
}

TEST_CASE("L splits into in-plane and periodic parts on extruded meshes", "[fft]") {
  SECTION("prisms, walls") { check_reconstruction(mesh::extrude(mesh::make_tri_rect({.cells = {3, 4}}), {.layers = 4}), nullptr); }
  SECTION("hexahedra, walls and an outlet") {
    const auto m = mesh::extrude(mesh::make_quad_rect({.cells = {4, 3}, .stretch = {1.5, 0}}), {.layers = 6});
    const auto b = test::side_boundaries(m, true);
    check_reconstruction(m, &b);
  }
  SECTION("periodic hex box, two planes") {
    check_reconstruction(mesh::make_hex_box({.cells = {3, 4, 2}, .periodic = {true, true, true}}), nullptr);
  }
}

TEST_CASE("λk = −4 sin²(πk/Nper) are the eigenvalues of the periodic second difference", "[fft]") {
  const index_t n = 12;
  CHECK(fft::periodic_eigenvalue(0, n) == 0);
  CHECK(fft::periodic_eigenvalue(n / 2, n) == Approx(-4));
  CHECK(fft::periodic_eigenvalue(n / 4, n) == Approx(-2));
  for (index_t k = 0; k <= n / 2; ++k)
    for (int phase = 0; phase < 2; ++phase) {
      std::vector<double> mode(n);
      for (index_t j = 0; j < n; ++j) mode[j] = std::cos(2 * std::numbers::pi * k * j / n - phase * 0.7);
      for (index_t j = 0; j < n; ++j) {
        const double second = mode[(j + 1) % n] - 2 * mode[j] + mode[(j + n - 1) % n];
        CHECK(second == Approx(fft::periodic_eigenvalue(k, n) * mode[j]).margin(1e-12));
      }
    }
}

TEST_CASE("Meshes that are no periodic uniform extrusion are refused with the reason", "[fft]") {
  const auto refuse = [](const mesh::Mesh& m) { fft::detect_extrusion(m, mesh::compute_geometry(m)); };
  SECTION("tetrahedra") {
    REQUIRE_THROWS_WITH(refuse(mesh::make_tet_box({.cells = {2, 2, 4}, .periodic = {false, false, true}})),
                        Contains("not an extrusion") && Contains("no twin above"));
  }
  SECTION("odd number of planes") {
    REQUIRE_THROWS_WITH(refuse(mesh::extrude(mesh::make_quad_rect({.cells = {2, 2}}), {.layers = 7})),
                        Contains("odd Nper = 7"));
  }
  SECTION("z not periodic") {
    REQUIRE_THROWS_WITH(refuse(mesh::extrude(mesh::make_tri_rect({.cells = {2, 2}}), {.layers = 4, .periodic = false})),
                        Contains("z is not periodic"));
  }
  SECTION("stretched z") {
    REQUIRE_THROWS_WITH(refuse(mesh::make_hex_box({.cells = {2, 2, 6}, .stretch = {0, 0, 1.2}, .periodic = {false, false, true}})),
                        Contains("non-uniform spacing dz"));
  }
}

TEST_CASE("Extrusion detection and the split give the same on 1 and 3 threads", "[fft][threads]") {
  const auto m = mesh::extrude(mesh::make_tri_rect({.cells = {40, 30}, .stretch = {1.2, 0}}), {.layers = 16});
  const auto geometry = mesh::compute_geometry(m);
  const CsrMatrix l = fv::laplacian_matrix(m, geometry, nullptr);
  const auto [one, three] = test::on_one_and_three_threads([&] {
    fft::Extrusion e = fft::detect_extrusion(m, geometry);
    fft::PlaneOperator op = fft::split_extruded_operator(l, e);
    return std::make_pair(std::move(e), std::move(op));
  });
  CHECK(one.first.planes == 16);
  CHECK(one.first.plane_cells == m.cell_count() / 16);
  CHECK(three.first.plane_cells == one.first.plane_cells);
  CHECK(three.first.cell_2d == one.first.cell_2d);
  CHECK(three.first.plane == one.first.plane);
  CHECK(three.first.cell_3d == one.first.cell_3d);
  CHECK(three.second.z_coupling == one.second.z_coupling);
  CHECK(three.second.in_plane.col == one.second.in_plane.col);
  CHECK(three.second.in_plane.val == one.second.in_plane.val);
}

TEST_CASE("A refused extrusion names its first failure in mesh order on 3 threads too", "[fft][threads]") {
  const auto m = mesh::extrude(mesh::make_quad_rect({.cells = {30, 20}}), {.layers = 8});
  const auto geometry = mesh::compute_geometry(m);
  CsrMatrix l = fv::laplacian_matrix(m, geometry, nullptr);
  const fft::Extrusion e = fft::detect_extrusion(m, geometry);
  // Two rows whose coupling to their twin above differs from plane 0's, far apart in row order.
  const index_t first = e.at(5, 3), second = e.at(e.plane_cells - 5, 6);
  REQUIRE(first < second);
  for (const index_t row : {first, second})
    for (index_t i = l.row_ptr[row]; i < l.row_ptr[row + 1]; ++i)
      if (l.col[i] == e.at(e.cell_2d[row], e.plane[row] + 1)) l.val[i] *= 1.5;
  const auto [one, three] = test::on_one_and_three_threads([&] {
    try {
      fft::split_extruded_operator(l, e);
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  });
  CHECK_THAT(one, Contains("entry (" + std::to_string(first) + ", "));
  CHECK(three == one);
  const auto stretched = mesh::make_hex_box({.cells = {16, 16, 8}, .stretch = {0, 0, 1.2}, .periodic = {false, false, true}});
  const auto [one_dz, three_dz] = test::on_one_and_three_threads([&] {
    try {
      fft::detect_extrusion(stretched, mesh::compute_geometry(stretched));
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  });
  CHECK_THAT(one_dz, Contains("non-uniform spacing dz"));
  CHECK(three_dz == one_dz);
}
