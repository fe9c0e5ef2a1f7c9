#include <algorithm>
#include <catch2/catch.hpp>

#include "mesh/generators.hpp"
#include "mesh_checks.hpp"

using namespace miniapp;
using namespace miniapp::mesh;

namespace {

double signed_area(const Mesh2d& m, index_t c) {
  double twice = 0;
  const index_t begin = m.cell_node_offsets[c], n = m.cell_node_offsets[c + 1] - begin;
  for (index_t i = 0; i < n; ++i) {
    const auto& p = m.nodes[m.cell_nodes[begin + i]];
    const auto& q = m.nodes[m.cell_nodes[begin + (i + 1) % n]];
    twice += p[0] * q[1] - q[0] * p[1];
  }
  return twice / 2;
}

void check_rect(const Mesh2d& m, double area) {
  double total = 0;
  std::size_t clockwise = 0;
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const double a = signed_area(m, c);
    clockwise += a <= 0;
    total += a;
  }
  CHECK(clockwise == 0);
  CHECK(total == Approx(area).epsilon(1e-12));
}

index_t patch_faces(const Mesh& m, const char* name) {
  const Patch* p = m.find_patch(name);
  REQUIRE(p != nullptr);
  return p->face_count;
}

}  // namespace

TEST_CASE("extruded quads become hexahedra, periodic in z", "[mesh][extrude]") {
  RectSpec r;
  r.cells = {3, 2};
  r.origin = {1, -1};
  r.length = {3, 2};
  const Mesh2d base = make_quad_rect(r);
  check_rect(base, 6.0);
  ExtrusionSpec e;
  e.layers = 4;
  e.length = 0.5;
  const Mesh m = extrude(base, e);
  const MeshGeometry g = compute_geometry(m);
  test::check_mesh(m, g, 3.0);
  CHECK(std::all_of(m.cell_types.begin(), m.cell_types.end(), [](CellType t) { return t == CellType::hexahedron; }));
  const index_t edges = 2 * 2 + 3 * 1;  // interior 2D edges: (nx − 1) ny + nx (ny − 1)
  CHECK(m.interior_face_count == e.layers * edges + base.cell_count() * e.layers);
  CHECK(m.periodic_faces.size() == 6);
  CHECK(m.find_patch("zmin") == nullptr);
  CHECK(patch_faces(m, "xmin") == 2 * e.layers);
  CHECK(patch_faces(m, "ymax") == 3 * e.layers);
  for (const PeriodicFace& p : m.periodic_faces) CHECK(g.face_delta_n[p.face] == Approx(0.5 / 4));
}

TEST_CASE("extruded triangles become prisms, stretched, non-periodic", "[mesh][extrude]") {
  RectSpec r;
  r.cells = {4, 3};
  r.stretch = {1.2, 0.7};
  const Mesh2d base = make_tri_rect(r);
  check_rect(base, 1.0);
  ExtrusionSpec e;
  e.layers = 3;
  e.z0 = -1;
  e.length = 2;
  e.periodic = false;
  const Mesh m = extrude(base, e);
  const MeshGeometry g = compute_geometry(m);
  test::check_mesh(m, g, 2.0);
  CHECK(m.cell_count() == 2 * 4 * 3 * 3);
  CHECK(std::all_of(m.cell_types.begin(), m.cell_types.end(), [](CellType t) { return t == CellType::prism; }));
  const index_t edges = 3 * 3 + 4 * 2 + 4 * 3;  // horizontal, vertical and diagonal interior edges
  CHECK(m.interior_face_count == e.layers * edges + base.cell_count() * (e.layers - 1));
  CHECK(patch_faces(m, "zmin") == base.cell_count());
  CHECK(patch_faces(m, "zmax") == base.cell_count());
  CHECK(patch_faces(m, "xmax") == 3 * e.layers);
  CHECK(m.periodic_faces.empty());
}

TEST_CASE("clockwise 2D cells are turned before extrusion", "[mesh][extrude]") {
  Mesh2d base = make_tri_rect({});
  std::reverse(base.cell_nodes.begin() + base.cell_node_offsets[0],
               base.cell_nodes.begin() + base.cell_node_offsets[1]);
  REQUIRE(signed_area(base, 0) < 0);
  const Mesh m = extrude(base, {});
  test::check_mesh(m, compute_geometry(m), 1.0);
  CHECK(m.cells_in_lattice_order);  // passed on from the generated rectangle
  base.cells_in_lattice_order = false;  // a 2D mesh read from a file
  CHECK_FALSE(extrude(base, {}).cells_in_lattice_order);
}
