#include "mesh/mesh_report.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "mesh/generators.hpp"

using namespace miniapp;
using namespace miniapp::mesh;
using Catch::Contains;

TEST_CASE("report of a periodic hexahedral box", "[mesh][report]") {
  BoxSpec s;
  s.cells = {2, 3, 4};
  s.length = {2, 3, 4};
  s.periodic = {true, false, false};
  const Mesh m = make_hex_box(s);
  const MeshReport r = make_report(m, compute_geometry(m));
  CHECK(r.cells_by_type[static_cast<int>(CellType::hexahedron)] == 24);
  CHECK(r.cells_by_type[static_cast<int>(CellType::tetrahedron)] == 0);
  CHECK(r.periodic_faces == 12);
  CHECK(r.boundary_faces == 2 * (2 * 4 + 2 * 3));
  CHECK(r.interior_faces + r.boundary_faces == r.faces);
  CHECK(r.total_volume == Approx(24));
  CHECK(r.min_cell_volume == Approx(1));
  CHECK(r.max_cell_volume == Approx(1));
  CHECK(r.max_non_orthogonality_deg < 1e-6);
  CHECK(r.max_closure_error < 1e-14);
  CHECK(r.open_cells == 0);
  std::ostringstream out;
  print_report(out, m, r);
  CHECK_THAT(out.str(), Contains("hexahedron 24") && Contains("ymin: 8 faces") && Contains("xmin -> xmax"));
}

TEST_CASE("report sees the non-orthogonality of tetrahedra on a stretched box", "[mesh][report]") {
  BoxSpec s;
  s.stretch = {2, 2, 2};
  const Mesh m = make_tet_box(s);
  const MeshReport r = make_report(m, compute_geometry(m));
  CHECK(r.cells_by_type[static_cast<int>(CellType::tetrahedron)] == 6 * 512);
  CHECK(r.max_non_orthogonality_deg > 10);
  CHECK(r.max_non_orthogonality_deg < 90);
  CHECK(r.open_cells == 0);
}

TEST_CASE("report counts open cells", "[mesh][report]") {
  BoxSpec s;
  s.cells = {3, 1, 1};
  Mesh m = make_hex_box(s);
  const Patch* xmax = m.find_patch("xmax");
  REQUIRE(xmax != nullptr);
  m.face_owner[xmax->first_face] = 0;  // cell 0 gains a face, cell 2 loses one
  const MeshReport r = make_report(m, compute_geometry(m));
  CHECK(r.open_cells == 2);
  CHECK(r.max_closure_error > 0.1);
}
