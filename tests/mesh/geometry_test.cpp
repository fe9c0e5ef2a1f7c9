#include "mesh/geometry.hpp"

#include <catch2/catch.hpp>
#include <random>

#include "mesh/generators.hpp"
#include "mesh/mesh_builder.hpp"
#include "mesh_checks.hpp"

using namespace miniapp;
using namespace miniapp::mesh;

TEST_CASE("geometry of a single tetrahedron", "[mesh][geometry]") {
  CellSoup s;
  s.nodes = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 0, 2}};
  s.add_cell(CellType::tetrahedron, {0, 1, 2, 3});
  const index_t p = s.add_patch("all");
  for (auto f : {std::initializer_list<index_t>{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}) s.add_boundary_face(p, f);
  const Mesh m = build_mesh(s, {}, "tet");
  const MeshGeometry g = compute_geometry(m);
  CHECK(g.cell_volume[0] == Approx(8.0 / 6.0));
  CHECK(g.cell_centroid[0].x == Approx(0.5));
  CHECK(g.cell_centroid[0].z == Approx(0.5));
  double slanted = 0;
  for (index_t f = 0; f < 4; ++f) {
    if (g.face_normal[f].x > 0.5) slanted = g.face_area[f];  // the face x + y + z = 2
    CHECK(g.face_delta_n[f] == Approx(dot(g.face_normal[f], g.face_centroid[f] - g.cell_centroid[0])));
  }
  CHECK(slanted == Approx(std::sqrt(3.0) / 2 * 4));  // equilateral triangle of side 2√2
}

TEST_CASE("warped faces: jittered interior nodes keep the box volume and first moment", "[mesh][geometry]") {
  BoxSpec spec;
  spec.cells = {4, 4, 4};
  Mesh m = make_hex_box(spec);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);  // a fifth of the spacing
  for (Vec3& x : m.nodes) {
    const bool inside = x.x > 0 && x.x < 1 && x.y > 0 && x.y < 1 && x.z > 0 && x.z < 1;
    if (inside) x += Vec3{jitter(rng), jitter(rng), jitter(rng)};
  }
  const MeshGeometry g = compute_geometry(m);
  // Neighbours decompose a shared warped face into the same triangles, so the cells tile the box
  // exactly: their volumes and first moments add up to the box's.
  test::check_mesh(m, g, 1.0);
  Vec3 moment;
  for (index_t c = 0; c < m.cell_count(); ++c) moment += g.cell_volume[c] * g.cell_centroid[c];
  CHECK(moment.x == Approx(0.5).epsilon(1e-12));
  CHECK(moment.y == Approx(0.5).epsilon(1e-12));
  CHECK(moment.z == Approx(0.5).epsilon(1e-12));
}
