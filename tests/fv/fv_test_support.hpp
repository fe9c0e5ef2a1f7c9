#pragma once
// Meshes, boundary sets and small host linear algebra shared by the flow-operator tests.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <span>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "mesh/mesh_builder.hpp"
#include "operators/fv/flow_operators.hpp"
#include "operators/sparse/csr_compare.hpp"
#include "tests/mesh/test_soups.hpp"

namespace miniapp::fv::test {

struct FlowCase {
  std::string name;
  mesh::Mesh mesh;
  mesh::MeshGeometry geometry;
  FlowBoundaries boundaries;
};

// Every patch a wall, except those named in `special` (patch name, condition).
using SpecialPatches = std::vector<std::pair<std::string, BoundaryCondition>>;

inline FlowBoundaries boundaries_of(const mesh::Mesh& m, const SpecialPatches& special = {}) {
  FlowBoundaries b;
  for (const auto& patch : m.patches) {
    BoundaryCondition bc;
    for (const auto& [name, condition] : special)
      if (name == patch.name) bc = condition;
    b.by_patch.push_back(bc);
  }
  return b;
}

inline FlowCase make_case(std::string name, mesh::Mesh m, const SpecialPatches& special = {}) {
  FlowCase c{std::move(name), std::move(m), {}, {}};
  c.geometry = mesh::compute_geometry(c.mesh);
  c.boundaries = boundaries_of(c.mesh, special);
  return c;
}

// Fully periodic boxes of hexahedra and tetrahedra, and prisms periodic along z (their sides are walls).
inline std::vector<FlowCase> periodic_cases() {
  std::vector<FlowCase> cases;
  cases.push_back(make_case("hex periodic", mesh::make_hex_box({.cells = {4, 3, 5}, .length = {1, 2, 0.5},
                                                               .stretch = {0.8, 0, 0.5}, .periodic = {true, true, true}})));
  cases.push_back(make_case("tet periodic", mesh::make_tet_box({.cells = {3, 3, 3}, .length = {1, 1.5, 1},
                                                               .stretch = {0, 1, 0}, .periodic = {true, true, true}})));
  cases.push_back(make_case("prism walls+periodic",
                            mesh::extrude(mesh::make_tri_rect({.cells = {4, 3}, .length = {2, 1}, .stretch = {0.5, 0}}),
                                          {.layers = 3, .length = 1, .periodic = true})));
  return cases;
}

// Boxes with walls only (pure-Neumann pressure) or with an inlet on xmin, an outlet on xmax (on the
// mixed mesh: outlet on "top") and a slip wall on ymin, every cell type.
inline std::vector<FlowCase> bounded_cases(bool with_outlet) {
  const BoundaryCondition inlet{BoundaryKind::inlet, {1.0, 0.2, -0.1}}, outlet{BoundaryKind::outlet, {}},
      slip{BoundaryKind::slip, {}};
  SpecialPatches special;
  if (with_outlet) special = {{"xmin", inlet}, {"xmax", outlet}, {"top", outlet}, {"ymin", slip}};
  std::vector<FlowCase> cases;
  cases.push_back(make_case("hex", mesh::make_hex_box({.cells = {4, 3, 5}, .length = {1, 2, 0.5}, .stretch = {1.5, 0, 0}}),
                            special));
  cases.push_back(make_case("tet", mesh::make_tet_box({.cells = {3, 3, 2}, .stretch = {0, 1, 0}}), special));
  cases.push_back(make_case("prism", mesh::extrude(mesh::make_tri_rect({.cells = {4, 3}, .length = {2, 1}}),
                                                   {.layers = 2, .length = 1, .periodic = false}),
                            special));
  cases.push_back(make_case("mixed", mesh::build_mesh(mesh::test::mixed_soup(), {}, "mixed"), special));
  return cases;
}

inline std::vector<double> random_vector(std::size_t n, unsigned seed, double low = -1, double high = 1) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> value(low, high);
  std::vector<double> v(n);
  for (double& x : v) x = value(engine);
  return v;
}

inline double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

inline double max_abs(std::span<const double> v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

inline double max_abs(const CsrMatrix& a) { return max_abs(a.val); }

// max |a − b| over the union of both patterns.
inline double max_difference(const CsrMatrix& a, const CsrMatrix& b) { return max_abs_difference(a, b); }

inline CsrMatrix scaled(CsrMatrix a, double s) {
  for (double& v : a.val) v *= s;
  return a;
}

// Solves A x = b for symmetric positive (semi-)definite A and consistent b by plain CG, to a relative
// residual of 1e-15 or `max_iterations`.
inline std::vector<double> conjugate_gradient(const CsrMatrix& a, const std::vector<double>& b, int max_iterations = 5000) {
  std::vector<double> x(b.size(), 0.0), r = b, p = r;
  double rr = dot(r, r);
  const double target = 1e-30 * rr;
  for (int it = 0; it < max_iterations && rr > target; ++it) {
    const std::vector<double> ap = reference_spmv(a, p);
    const double alpha = rr / dot(p, ap);
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
    }
    const double rr_new = dot(r, r);
    for (std::size_t i = 0; i < x.size(); ++i) p[i] = r[i] + (rr_new / rr) * p[i];
    rr = rr_new;
  }
  return x;
}

// A discretely divergence-free face velocity: a random face field w (zero where the velocity is
// prescribed) minus Gs p with −L p = −M w, so that M u_s = M w − L p = 0 to the CG tolerance.
inline std::vector<double> divergence_free_face_velocity(const FlowCase& c, const FlowOperators& ops, unsigned seed) {
  std::vector<double> w = random_vector(static_cast<std::size_t>(c.mesh.face_count()), seed);
  for (index_t f = c.mesh.interior_face_count; f < c.mesh.face_count(); ++f)
    if (fixes_face_velocity(c.boundaries.of_face(c.mesh, f).kind)) w[f] = 0;
  std::vector<double> minus_div = reference_spmv(ops.divergence, w);
  for (double& v : minus_div) v = -v;
  const std::vector<double> p = conjugate_gradient(scaled(ops.laplacian, -1), minus_div);
  const std::vector<double> gp = reference_spmv(ops.face_gradient, p);
  for (std::size_t f = 0; f < w.size(); ++f) w[f] -= gp[f];
  return w;
}

}  // namespace miniapp::fv::test
