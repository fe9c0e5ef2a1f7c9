#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "mesh/generators.hpp"
#include "mesh/mesh_report.hpp"
#include "mesh_checks.hpp"

using namespace miniapp;
using namespace miniapp::mesh;

namespace {

// A box closed on every side, and one periodic along every axis.
constexpr std::array<std::array<bool, 3>, 2> closed_and_periodic{{{false, false, false}, {true, true, true}}};

double box_volume(const BoxSpec& s) { return s.length.x * s.length.y * s.length.z; }

// Faces between lattice cells of a box (periodic axes add the wrap-around layer).
index_t lattice_interior_faces(const BoxSpec& s) {
  index_t faces = 0;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    faces += (s.cells[a] - 1 + (s.periodic[a] ? 1 : 0)) * s.cells[b] * s.cells[c];
  }
  return faces;
}

index_t lattice_boundary_faces(const BoxSpec& s) {
  index_t faces = 0;
  for (int a = 0; a < 3; ++a)
    if (!s.periodic[a]) faces += 2 * s.cells[(a + 1) % 3] * s.cells[(a + 2) % 3];
  return faces;
}

// The axis a unit normal of a box face points along.
int normal_axis(const Vec3& n) {
  int a = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(n[i]) > std::abs(n[a])) a = i;
  return a;
}

// On a uniform hexahedral box, delta_n is the spacing h_a across each interior (and periodic) face
// and h_a / 2 to each boundary face.
void check_uniform_deltas(const Mesh& m, const MeshGeometry& g, const BoxSpec& s) {
  std::size_t wrong = 0;
  for (index_t f = 0; f < m.face_count(); ++f) {
    const int a = normal_axis(g.face_normal[f]);
    const double h = s.length[a] / s.cells[a];
    const double expected = m.is_boundary(f) ? h / 2 : h;
    if (std::abs(g.face_delta_n[f] - expected) > 1e-12 * h) ++wrong;
  }
  CHECK(wrong == 0);
}

// The distinct differences neighbour − owner over the interior faces that are not periodic.
std::set<index_t> neighbour_offsets(const Mesh& m) {
  std::vector<bool> periodic(static_cast<std::size_t>(m.interior_face_count), false);
  for (const PeriodicFace& p : m.periodic_faces) periodic[static_cast<std::size_t>(p.face)] = true;
  std::set<index_t> offsets;
  for (index_t f = 0; f < m.interior_face_count; ++f)
    if (!periodic[static_cast<std::size_t>(f)]) offsets.insert(m.face_neighbour[f] - m.face_owner[f]);
  return offsets;
}

}  // namespace

TEST_CASE("generated meshes say their cells are in lattice order: neighbours at a few fixed offsets", "[mesh][box]") {
  // The same offsets, however many cells: what lets operator assembly keep this order.
  for (const index_t n : {4, 7}) {
    const BoxSpec spec{.cells = {n, n + 1, n + 2}, .periodic = {false, true, false}};
    const std::array<Mesh, 4> meshes = {make_hex_box(spec), make_tet_box(spec),
                                        make_box_layers(spec, BoxCells::tetrahedra, 1, 2, "cut").mesh,
                                        extrude(make_tri_rect({.cells = {n, n + 1}}), {.layers = n, .periodic = false})};
    const std::array<std::size_t, 4> most = {3, 3 * 6 + 6, 3 * 6 + 6, 3 * 2 + 2};
    for (std::size_t i = 0; i < meshes.size(); ++i) {
      INFO("mesh " << i << ", n " << n);
      CHECK(meshes[i].cells_in_lattice_order);
      CHECK(neighbour_offsets(meshes[i]).size() <= most[i]);
    }
  }
}

TEST_CASE("uniform hexahedral box", "[mesh][box]") {
  BoxSpec s;
  s.cells = {3, 4, 5};
  s.origin = {-1, 0, 2};
  s.length = {1, 2, 3};
  for (const auto periodic : {std::array<bool, 3>{false, false, false}, std::array<bool, 3>{true, false, true},
                              std::array<bool, 3>{true, true, true}}) {
    s.periodic = periodic;
    const Mesh m = make_hex_box(s);
    const MeshGeometry g = compute_geometry(m);
    test::check_mesh(m, g, box_volume(s));
    CHECK(m.interior_face_count == lattice_interior_faces(s));
    CHECK(m.boundary_face_count() == lattice_boundary_faces(s));
    check_uniform_deltas(m, g, s);
    const std::size_t links = periodic[0] + periodic[1] + periodic[2];
    CHECK(m.periodic_links.size() == links);
    CHECK(m.patches.size() == 6 - 2 * links);
  }
}

TEST_CASE("a box one cell thick in a periodic direction makes each cell its own neighbour there", "[mesh][box]") {
  BoxSpec s;
  s.cells = {2, 2, 1};
  s.periodic = {false, false, true};
  const Mesh m = make_hex_box(s);
  const MeshGeometry g = compute_geometry(m);
  test::check_mesh(m, g, 1.0);
  REQUIRE(m.periodic_faces.size() == 4);
  for (const PeriodicFace& p : m.periodic_faces) CHECK(m.face_owner[p.face] == m.face_neighbour[p.face]);
  check_uniform_deltas(m, g, s);
}

TEST_CASE("stretched hexahedral box follows the tanh law", "[mesh][box]") {
  BoxSpec s;
  s.cells = {6, 4, 8};
  s.length = {2, 1, 1};
  s.stretch = {1.5, 0, 2};
  s.periodic = {false, true, false};
  const Mesh m = make_hex_box(s);
  const MeshGeometry g = compute_geometry(m);
  test::check_mesh(m, g, 2.0);
  CHECK(m.interior_face_count == lattice_interior_faces(s));
  // First cell of the z axis: x_1 = L (1 + tanh(β (2/n − 1)) / tanh β) / 2; cell 0 is at the corner.
  const double z1 = 0.5 * (1 + std::tanh(2.0 * (2.0 / 8 - 1)) / std::tanh(2.0));
  const double x1 = 2.0 * 0.5 * (1 + std::tanh(1.5 * (2.0 / 6 - 1)) / std::tanh(1.5));
  CHECK(g.cell_volume[0] == Approx(x1 * 0.25 * z1).epsilon(1e-12));
  // Wall-clustered: the corner cell is the smallest, and cells grow towards the centre.
  const auto [lo, hi] = std::minmax_element(g.cell_volume.begin(), g.cell_volume.end());
  CHECK(*lo == Approx(g.cell_volume[0]));
  CHECK(*hi > 4 * *lo);
  std::size_t non_positive = 0;
  for (double d : g.face_delta_n) non_positive += d <= 0;
  CHECK(non_positive == 0);
}

TEST_CASE("tetrahedral box: six tetrahedra per lattice cell, matching across periodic sides", "[mesh][box]") {
  BoxSpec s;
  s.cells = {2, 3, 2};
  s.length = {1, 1.5, 2};
  for (const auto& periodic : closed_and_periodic) {
    s.periodic = periodic;
    const Mesh m = make_tet_box(s);
    const MeshGeometry g = compute_geometry(m);
    test::check_mesh(m, g, box_volume(s));
    const index_t hexes = s.cells[0] * s.cells[1] * s.cells[2];
    CHECK(m.cell_count() == 6 * hexes);
    // Six faces inside each lattice cell, two triangles per lattice face.
    CHECK(m.interior_face_count == 6 * hexes + 2 * lattice_interior_faces(s));
    CHECK(m.boundary_face_count() == 2 * lattice_boundary_faces(s));
    for (double v : g.cell_volume) CHECK(v == Approx(box_volume(s) / (6 * hexes)).epsilon(1e-12));
    std::size_t non_positive = 0;
    for (double d : g.face_delta_n) non_positive += d <= 0;
    CHECK(non_positive == 0);
  }
}

// Each lattice cell's split is its neighbours' mirror image, and Kuhn's six tetrahedra of a cube are
// each other's mirror images too: with cubic cells every face is orthogonal to the line between the
// centroids it joins, which the two-point Laplacian needs. Along a periodic axis of odd cell count the
// first and last cells are not mirror images, so the faces where the box closes on itself are not.
TEST_CASE("tetrahedral box on cubic cells: every face orthogonal, but across a periodic seam of odd cell count", "[mesh][box]") {
  BoxSpec s;
  s.cells = {4, 2, 6};
  s.length = {1, 0.5, 1.5};
  for (const auto& periodic : closed_and_periodic) {
    s.periodic = periodic;
    const Mesh m = make_tet_box(s);
    CHECK(make_report(m, compute_geometry(m)).max_non_orthogonality_deg < 1e-4);
  }
  s.cells = {4, 3, 6};
  s.length = {1, 0.75, 1.5};
  s.periodic = {false, true, false};
  const Mesh odd = make_tet_box(s);
  CHECK(make_report(odd, compute_geometry(odd)).max_non_orthogonality_deg > 10);
}
