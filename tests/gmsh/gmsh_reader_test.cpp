// 3D reads of the shipped meshes (cases/meshes, see its README for how Gmsh made them) and of a
// hand-written one-hexahedron file.
#include <catch2/catch.hpp>
#include <map>

#include "../mesh/mesh_checks.hpp"
#include "gmsh_test_files.hpp"
#include "mesh/geometry.hpp"
#include "mesh/gmsh_reader.hpp"

namespace miniapp::mesh::test {
namespace {

std::map<CellType, index_t> cells_by_type(const Mesh& m) {
  std::map<CellType, index_t> count;
  for (CellType t : m.cell_types) ++count[t];
  return count;
}

index_t patch_faces(const Mesh& m, const std::string& name) {
  const Patch* p = m.find_patch(name);
  REQUIRE(p != nullptr);
  return p->face_count;
}

// Every node of every face of `patch` has coordinate `axis` equal to `value`.
bool patch_on_plane(const Mesh& m, const std::string& patch, int axis, double value) {
  const Patch* p = m.find_patch(patch);
  REQUIRE(p != nullptr);
  for (index_t f = p->first_face; f < p->first_face + p->face_count; ++f)
    for (index_t i = m.face_node_offsets[f]; i < m.face_node_offsets[f + 1]; ++i)
      if (std::abs(m.nodes[m.face_nodes[i]][axis] - value) > 1e-12) return false;
  return true;
}

}  // namespace

TEST_CASE("a hand-written hexahedron with sparse node tags keeps Gmsh's node order", "[gmsh]") {
  ScratchDir dir;
  const Mesh m = read_gmsh_3d(dir.write("cube.msh", hex_cube_msh));
  REQUIRE(m.cell_count() == 1);
  CHECK(m.cell_types[0] == CellType::hexahedron);
  REQUIRE(m.node_count() == 8);
  const Vec3 corners[8] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int k = 0; k < 8; ++k) CHECK(norm(m.nodes[m.cell_nodes[k]] - corners[k]) == 0);
  REQUIRE(m.patches.size() == 1);
  CHECK(m.patches[0].name == "walls");
  CHECK(m.patches[0].face_count == 6);
  check_mesh(m, compute_geometry(m), 1.0);
}

TEST_CASE("ASCII and binary files of the mixed mesh give identical meshes", "[gmsh]") {
  const Mesh a = read_gmsh_3d(mesh_file("mixed.msh"));
  const Mesh b = read_gmsh_3d(mesh_file("mixed_binary.msh"));
  REQUIRE(a.node_count() == b.node_count());
  double worst = 0;  // ASCII holds 16 significant digits, binary all 17
  for (index_t i = 0; i < a.node_count(); ++i) worst = std::max(worst, norm(a.nodes[i] - b.nodes[i]));
  CHECK(worst < 1e-15);
  CHECK(a.cell_types == b.cell_types);
  CHECK(a.cell_nodes == b.cell_nodes);
  CHECK(a.face_nodes == b.face_nodes);
  CHECK(a.face_owner == b.face_owner);
  CHECK(a.face_neighbour == b.face_neighbour);
  REQUIRE(a.patches.size() == b.patches.size());
  for (std::size_t p = 0; p < a.patches.size(); ++p) {
    CHECK(a.patches[p].name == b.patches[p].name);
    CHECK(a.patches[p].face_count == b.patches[p].face_count);
  }
}

TEST_CASE("the mixed mesh has the cells, patches and volume Gmsh made", "[gmsh]") {
  const Mesh m = read_gmsh_3d(mesh_file("mixed.msh"));
  const auto count = cells_by_type(m);
  // Counts reported by Gmsh's API for the file (cases/meshes/README.md): 3x3x3 hexahedra, one pyramid
  // per quadrangle of the 3x3 interface, two prism layers over the 26 top triangles.
  CHECK(count.at(CellType::hexahedron) == 27);
  CHECK(count.at(CellType::pyramid) == 9);
  CHECK(count.at(CellType::prism) == 52);
  CHECK(count.at(CellType::tetrahedron) == 237);
  REQUIRE(m.patches.size() == 3);
  CHECK(patch_faces(m, "inlet") == 9);
  CHECK(patch_faces(m, "outlet") == 32);
  CHECK(patch_faces(m, "walls") == 158);
  CHECK(patch_on_plane(m, "inlet", 0, 0.0));
  CHECK(patch_on_plane(m, "outlet", 0, 2.0));
  check_mesh(m, compute_geometry(m), 2.25);
}

TEST_CASE("the plain tetrahedral box has unit volume and one patch", "[gmsh]") {
  const Mesh m = read_gmsh_3d(mesh_file("tet_box.msh"));
  const auto count = cells_by_type(m);
  CHECK(count.size() == 1);
  CHECK(count.at(CellType::tetrahedron) == 373);
  REQUIRE(m.patches.size() == 1);
  CHECK(patch_faces(m, "walls") == 260);
  check_mesh(m, compute_geometry(m), 1.0);
}

TEST_CASE("the periodic box reads with and without periodic links", "[gmsh]") {
  const std::string path = mesh_file("periodic_box.msh");
  const Mesh open = read_gmsh_3d(path);
  const std::map<std::string, index_t> faces{{"xmin", 38}, {"xmax", 38}, {"ymin", 22},
                                             {"ymax", 22}, {"zmin", 84}, {"zmax", 84}};
  REQUIRE(open.patches.size() == faces.size());
  for (const auto& [name, n] : faces) CHECK(patch_faces(open, name) == n);
  CHECK(patch_on_plane(open, "ymax", 1, 2.0));
  CHECK(patch_on_plane(open, "zmax", 2, 0.5));
  check_mesh(open, compute_geometry(open), 1.0);

  const std::vector<PeriodicRequest> links{
      {"xmin", "xmax", {1, 0, 0}}, {"ymin", "ymax", {0, 2, 0}}, {"zmin", "zmax", {0, 0, 0.5}}};
  const Mesh m = read_gmsh_3d(path, links);
  CHECK(m.patches.empty());
  CHECK(m.boundary_face_count() == 0);
  CHECK(m.periodic_links.size() == 3);
  CHECK(m.periodic_faces.size() == 38 + 22 + 84);
  CHECK(m.face_count() == open.face_count() - (38 + 22 + 84));
  // Gmsh places the nodes of a periodic copy to about 4e-12 only (README), above check_mesh's
  // round-off tolerances: check volume and closure here with a tolerance to match.
  const MeshGeometry g = compute_geometry(m);
  double total = 0, min_volume = 1;
  for (double v : g.cell_volume) total += v, min_volume = std::min(min_volume, v);
  CHECK(min_volume > 0);
  CHECK(total == Approx(1.0).epsilon(1e-12));
  std::vector<Vec3> closure(m.cell_count());
  for (index_t f = 0; f < m.face_count(); ++f) {
    closure[m.face_owner[f]] += g.face_normal[f] * g.face_area[f];
    closure[m.face_neighbour[f]] -= g.face_normal[f] * g.face_area[f];
  }
  double worst = 0;
  for (const Vec3& c : closure) worst = std::max(worst, norm(c));
  CHECK(worst < 1e-10);
}

TEST_CASE("a physical group without a name becomes patch group<tag>", "[gmsh]") {
  ScratchDir dir;
  std::string text = replace_once(hex_cube_msh, "2\n2 7 \"walls\"\n", "1\n");
  const Mesh m = read_gmsh_3d(dir.write("unnamed.msh", text));
  REQUIRE(m.patches.size() == 1);
  CHECK(m.patches[0].name == "group7");
}

TEST_CASE("gmsh_dimension reports the highest element dimension", "[gmsh]") {
  CHECK(gmsh_dimension(mesh_file("mixed_binary.msh")) == 3);
  CHECK(gmsh_dimension(mesh_file("periodic_box.msh")) == 3);
  CHECK(gmsh_dimension(mesh_file("cylinder_2d.msh")) == 2);
  CHECK(gmsh_dimension(mesh_file("cylinder_2d_binary.msh")) == 2);
}

}  // namespace miniapp::mesh::test
