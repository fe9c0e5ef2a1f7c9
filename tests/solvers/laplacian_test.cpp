// Properties of the finite-volume operators M, Gs and L = M·Gs on generated meshes of every cell type.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "operators/fv/divergence.hpp"
#include "operators/fv/face_gradient.hpp"
#include "operators/fv/laplacian.hpp"

using namespace miniapp;

namespace {

struct NamedMesh {
  std::string name;
  mesh::Mesh mesh;
};

// Small meshes of each kind, stretched or periodic so that no symmetry of a uniform grid hides a bug.
std::vector<NamedMesh> test_meshes() {
  mesh::BoxSpec hex{.cells = {4, 3, 5}, .length = {1, 2, 0.5}, .stretch = {1.5, 0, 0}, .periodic = {false, true, false}};
  mesh::BoxSpec tet{.cells = {3, 3, 2}, .length = {1, 1, 1}, .stretch = {0, 1, 0}, .periodic = {true, false, false}};
  mesh::RectSpec rect{.cells = {4, 3}, .length = {2, 1}, .stretch = {0.5, 0}};
  std::vector<NamedMesh> meshes;
  meshes.push_back({"hex", mesh::make_hex_box(hex)});
  meshes.push_back({"tet", mesh::make_tet_box(tet)});
  meshes.push_back({"prism", mesh::extrude(mesh::make_tri_rect(rect), {.layers = 3, .length = 1, .periodic = true})});
  return meshes;
}

std::vector<double> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = value(engine);
  return v;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

double entry(const CsrMatrix& a, index_t r, index_t c) {
  for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
    if (a.col[k] == c) return a.val[k];
  return 0;
}

double max_abs(const CsrMatrix& a) {
  double m = 0;
  for (double v : a.val) m = std::max(m, std::abs(v));
  return m;
}

}  // namespace

TEST_CASE("L is symmetric with zero row sums on hex, tet and prism meshes", "[fv]") {
  for (const auto& [name, m] : test_meshes()) {
    INFO(name);
    const CsrMatrix l = fv::laplacian_matrix(m, mesh::compute_geometry(m));
    REQUIRE(l.rows == m.cell_count());
    REQUIRE(l.cols == m.cell_count());
    const double scale = max_abs(l);
    for (index_t r = 0; r < l.rows; ++r) {
      double row_sum = 0;
      for (index_t k = l.row_ptr[r]; k < l.row_ptr[r + 1]; ++k) {
        row_sum += l.val[k];
        REQUIRE(std::abs(l.val[k] - entry(l, l.col[k], r)) <= 1e-12 * scale);
      }
      REQUIRE(std::abs(row_sum) <= 1e-12 * scale);
    }
  }
}

TEST_CASE("L equals M times Gs and is negative semi-definite", "[fv]") {
  for (const auto& [name, m] : test_meshes()) {
    INFO(name);
    const auto geometry = mesh::compute_geometry(m);
    const CsrMatrix div = fv::divergence_matrix(m, geometry);
    const CsrMatrix grad = fv::face_gradient_matrix(m, geometry);
    const CsrMatrix l = fv::laplacian_matrix(m, geometry);
    REQUIRE(div.rows == m.cell_count());
    REQUIRE(div.cols == m.face_count());
    REQUIRE(grad.rows == m.face_count());
    for (index_t f = m.interior_face_count; f < m.face_count(); ++f) REQUIRE(grad.row_length(f) == 0);
    for (unsigned seed = 1; seed <= 5; ++seed) {
      const auto v = random_vector(static_cast<std::size_t>(m.cell_count()), seed);
      const auto lv = reference_spmv(l, v);
      const auto mgv = reference_spmv(div, reference_spmv(grad, v));
      for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(lv[i] == Approx(mgv[i]).margin(1e-12 * max_abs(l)));
      REQUIRE(dot(v, lv) <= 0);
    }
  }
}

TEST_CASE("L of a uniform periodic hex box is the 7-point stencil A/δn", "[fv]") {
  // Cells of size 0.5: face area 0.25 over δn 0.5 gives off-diagonals 0.5, diagonal −3.
  const mesh::Mesh m = mesh::make_hex_box({.cells = {3, 4, 5}, .length = {1.5, 2, 2.5}, .periodic = {true, true, true}});
  const CsrMatrix l = fv::laplacian_matrix(m, mesh::compute_geometry(m));
  for (index_t r = 0; r < l.rows; ++r) {
    REQUIRE(l.row_length(r) == 7);
    for (index_t k = l.row_ptr[r]; k < l.row_ptr[r + 1]; ++k)
      REQUIRE(l.val[k] == Approx(l.col[k] == r ? -3.0 : 0.5));
  }
}

TEST_CASE("Neumann boundaries drop the wall faces from the stencil", "[fv]") {
  // Unit cells: a corner cell of a 3×3×3 box has 3 neighbours and diagonal −3.
  const mesh::Mesh m = mesh::make_hex_box({.cells = {3, 3, 3}, .length = {3, 3, 3}});
  const CsrMatrix l = fv::laplacian_matrix(m, mesh::compute_geometry(m));
  std::vector<int> cells_by_length(8, 0);
  for (index_t r = 0; r < l.rows; ++r) {
    cells_by_length[l.row_length(r)] += 1;
    REQUIRE(entry(l, r, r) == Approx(-(l.row_length(r) - 1.0)));
  }
  REQUIRE(cells_by_length[4] == 8);   // corners
  REQUIRE(cells_by_length[5] == 12);  // edges
  REQUIRE(cells_by_length[6] == 6);   // face centres
  REQUIRE(cells_by_length[7] == 1);   // the middle cell
}
