#include "mesh/mesh_builder.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "mesh/geometry.hpp"
#include "mesh_checks.hpp"
#include "test_soups.hpp"

using namespace miniapp;
using namespace miniapp::mesh;

namespace {

double tet_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return std::abs(dot(cross(b - a, c - a), d - a)) / 6.0;
}

}  // namespace

TEST_CASE("mixed hex/pyramid/prism/tet mesh builds closed, outward and with exact volumes", "[mesh][builder]") {
  const CellSoup soup = test::mixed_soup();
  const Mesh m = build_mesh(soup, {}, "mixed");
  const MeshGeometry g = compute_geometry(m);
  const auto& x = soup.nodes;
  const double tet1 = tet_volume(x[5], x[6], x[8], x[10]), tet2 = tet_volume(x[6], x[10], x[8], x[11]);
  // hexahedron 1, pyramid 1 · 0.5 / 3, prism: triangle area 0.25 times height 1.
  const std::vector<double> expected = {1.0, 1.0 / 6.0, 0.25, tet1, tet2};
  test::check_mesh(m, g, 1.0 + 1.0 / 6.0 + 0.25 + tet1 + tet2);
  for (index_t c = 0; c < m.cell_count(); ++c) CHECK(g.cell_volume[c] == Approx(expected[c]).epsilon(1e-12));
  CHECK(g.cell_centroid[0].z == Approx(0.5));
  CHECK(g.cell_centroid[1].z == Approx(1.0 + 0.5 / 4.0));  // pyramid centroid: a quarter of the height
  CHECK(m.interior_face_count == test::mixed_interior_faces);
  REQUIRE(m.patches.size() == 2);
  CHECK(m.patches[0].name == "walls");
  CHECK(m.patches[0].face_count == 7);
  CHECK(m.patches[1].name == "top");
  CHECK(m.patches[1].face_count == 7);
  // The shared faces keep their shapes: the hex-pyramid and hex-prism faces are quads.
  CHECK(m.face_node_offsets[1] - m.face_node_offsets[0] == 4);
}

TEST_CASE("a cell given in mirrored node order still gets outward faces", "[mesh][builder]") {
  CellSoup s;
  s.nodes = {{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1, 0}, {0, 0, 3}, {2, 0, 3}, {2, 1, 3}, {0, 1, 3}};
  s.add_cell(CellType::hexahedron, {4, 5, 6, 7, 0, 1, 2, 3});  // top and bottom swapped
  const index_t p = s.add_patch("all");
  for (auto f : {std::initializer_list<index_t>{0, 1, 2, 3},
                 {4, 5, 6, 7},
                 {0, 1, 5, 4},
                 {1, 2, 6, 5},
                 {2, 3, 7, 6},
                 {3, 0, 4, 7}})
    s.add_boundary_face(p, f);
  const Mesh m = build_mesh(s, {}, "mirrored");
  const MeshGeometry g = compute_geometry(m);
  test::check_mesh(m, g, 6.0);
  CHECK(g.cell_centroid[0].x == Approx(1.0));
  CHECK(g.cell_centroid[0].z == Approx(1.5));
}

TEST_CASE("a periodic link between two patches of a hand-made mesh becomes interior faces", "[mesh][builder]") {
  // Two unit hexahedra along x; xmin glued to xmax.
  const CellSoup s = test::hex_row_soup(2);
  const Mesh m = build_mesh(s, {{"xmin", "xmax", {2, 0, 0}}}, "pair");
  const MeshGeometry g = compute_geometry(m);
  test::check_mesh(m, g, 2.0);
  CHECK(m.interior_face_count == 2);
  REQUIRE(m.periodic_faces.size() == 1);
  const index_t f = m.periodic_faces[0].face;
  CHECK(m.face_owner[f] == 0);  // the cell on the xmin side owns the glued face
  CHECK(m.face_neighbour[f] == 1);
  CHECK(g.face_normal[f].x == Approx(-1.0));
  CHECK(face_deltas(m, g)[f].x == Approx(-1.0));  // neighbour centroid 1.5 minus translation 2, minus 0.5
  CHECK(g.face_delta_n[f] == Approx(1.0));
  REQUIRE(m.patches.size() == 1);
  CHECK(m.patches[0].name == "sides");
  REQUIRE(m.periodic_links.size() == 1);
  CHECK(m.periodic_links[0].patch_a == "xmin");
}
