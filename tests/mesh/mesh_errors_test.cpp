#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "mesh/generators.hpp"
#include "mesh/mesh_builder.hpp"
#include "test_soups.hpp"

using namespace miniapp;
using namespace miniapp::mesh;
using Catch::Contains;

namespace {

CellSoup single_tet() {
  CellSoup s;
  s.nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}, {-1, -1, -1}};
  s.add_cell(CellType::tetrahedron, {0, 1, 2, 3});
  return s;
}

}  // namespace

TEST_CASE("a soup with a face on no patch is reported as not closed, naming source, face and cell", "[mesh][errors]") {
  CellSoup s = single_tet();
  const index_t p = s.add_patch("walls");
  s.add_boundary_face(p, {0, 1, 3});
  s.add_boundary_face(p, {0, 2, 3});
  s.add_boundary_face(p, {1, 2, 3});  // face (0 1 2) left out
  REQUIRE_THROWS_WITH(build_mesh(s, {}, "soup.msh"), Contains("soup.msh") && Contains("mesh is not closed") &&
                                                         Contains("(0 2 1)") && Contains("of cell 0"));
}

TEST_CASE("a face shared by three cells is an error", "[mesh][errors]") {
  CellSoup s = single_tet();
  s.add_cell(CellType::tetrahedron, {0, 2, 1, 4});
  s.add_cell(CellType::tetrahedron, {0, 1, 2, 5});
  REQUIRE_THROWS_WITH(build_mesh(s, {}, "three"), Contains("three") && Contains("shared by 3 cells (0, 1, 2)"));
}

TEST_CASE("boundary faces that match no cell, repeat, or lie inside the mesh are errors", "[mesh][errors]") {
  CellSoup s = test::hex_row_soup(2);
  CellSoup stray = s;
  stray.add_boundary_face(0, {0, 1, 4});
  REQUIRE_THROWS_WITH(build_mesh(stray, {}, "stray"), Contains("is not a face of any cell"));
  CellSoup twice = s;
  twice.add_boundary_face(2, {0, 3, 9, 6});  // the xmin face again (nodes of a 2-cell row)
  REQUIRE_THROWS_WITH(build_mesh(twice, {}, "twice"), Contains("listed 2 times"));
  CellSoup inside = s;
  inside.add_boundary_face(2, {1, 4, 10, 7});  // the face between the two cells
  REQUIRE_THROWS_WITH(build_mesh(inside, {}, "inside"), Contains("lies between cells 0 and 1"));
}

TEST_CASE("periodic requests are checked", "[mesh][errors]") {
  const CellSoup s = test::hex_row_soup(3);
  CHECK_NOTHROW(build_mesh(s, {{"xmin", "xmax", {3, 0, 0}}}, "row"));
  REQUIRE_THROWS_WITH(build_mesh(s, {{"xmin", "nope", {3, 0, 0}}}, "row"),
                      Contains("row") && Contains("no patch named 'nope'") && Contains("xmin, xmax, sides"));
  REQUIRE_THROWS_WITH(build_mesh(s, {{"xmin", "sides", {3, 0, 0}}}, "row"),
                      Contains("patch 'xmin' has 1 faces and patch 'sides' has 12"));
  REQUIRE_THROWS_WITH(build_mesh(s, {{"xmin", "xmax", {2.5, 0, 0}}}, "row"),
                      Contains("1 of 1 faces of patch 'xmin' have no partner") && Contains("(0 0.5 0.5)"));
  REQUIRE_THROWS_WITH(build_mesh(s, {{"xmin", "xmin", {3, 0, 0}}}, "row"), Contains("glues a patch to itself"));
  REQUIRE_THROWS_WITH(build_mesh(s, {{"xmin", "xmax", {3, 0, 0}}, {"xmax", "sides", {0, 0, 0}}}, "row"),
                      Contains("patch 'xmax' is in two periodic links"));
}

TEST_CASE("malformed soups are rejected before matching", "[mesh][errors]") {
  CellSoup s = test::hex_row_soup(1);
  CellSoup bad_node = s;
  bad_node.cell_nodes[3] = 99;
  REQUIRE_THROWS_WITH(build_mesh(bad_node, {}, "bad"), Contains("names node 99"));
  CellSoup bad_type = s;
  bad_type.cell_types[0] = CellType::prism;
  REQUIRE_THROWS_WITH(build_mesh(bad_type, {}, "bad"), Contains("cell 0 is a prism with 8 nodes"));
  CHECK_THROWS_AS(s.add_cell(CellType::tetrahedron, {0, 1, 2}), Error);
  CHECK_THROWS_AS(s.add_boundary_face(7, {0, 1, 2}), Error);
}

TEST_CASE("box specs are validated", "[mesh][errors]") {
  BoxSpec spec;
  spec.cells = {2, 0, 2};
  REQUIRE_THROWS_WITH(make_hex_box(spec), Contains("make_hex_box: axis y: 0 cells"));
  spec = BoxSpec{};
  spec.length.z = -1;
  REQUIRE_THROWS_WITH(make_tet_box(spec), Contains("make_tet_box: axis z: length"));
  spec = BoxSpec{};
  spec.stretch[0] = std::numeric_limits<double>::quiet_NaN();
  REQUIRE_THROWS_WITH(make_hex_box(spec), Contains("axis x: stretch"));
  spec = BoxSpec{};
  spec.cells = {2000, 2000, 2000};
  REQUIRE_THROWS_WITH(make_tet_box(spec), Contains("32-bit index range"));
  RectSpec rect;
  rect.length = {1, 0};
  REQUIRE_THROWS_WITH(make_quad_rect(rect), Contains("make_quad_rect: axis y: length"));
  ExtrusionSpec ex;
  ex.layers = 0;
  REQUIRE_THROWS_WITH(extrude(make_tri_rect({}), ex), Contains("extrude: 0 layers"));
  Mesh2d named = make_quad_rect({});
  named.patch_names[0] = "zmin";
  REQUIRE_THROWS_WITH(extrude(named, {}), Contains("patch named 'zmin'"));
}
