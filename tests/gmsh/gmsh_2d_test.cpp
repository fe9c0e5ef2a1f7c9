// 2D reads: counter-clockwise cells and named edge patches.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "gmsh_test_files.hpp"
#include "mesh/gmsh_reader.hpp"

namespace miniapp::mesh::test {
namespace {

// Twice the signed area of cell c (shoelace): positive when counter-clockwise.
double twice_area(const Mesh2d& m, index_t c) {
  const index_t first = m.cell_node_offsets[c], n = m.cell_node_offsets[c + 1] - first;
  double sum = 0;
  for (index_t k = 0; k < n; ++k) {
    const auto& a = m.nodes[m.cell_nodes[first + k]];
    const auto& b = m.nodes[m.cell_nodes[first + (k + 1) % n]];
    sum += a[0] * b[1] - b[0] * a[1];
  }
  return sum;
}

std::map<std::string, int> edges_by_patch(const Mesh2d& m) {
  std::map<std::string, int> count;
  for (index_t p : m.boundary_edge_patch) ++count[m.patch_names.at(p)];
  return count;
}

}  // namespace

TEST_CASE("a hand-written square: the clockwise triangle is reversed, edge groups become patches", "[gmsh]") {
  ScratchDir dir;
  const Mesh2d m = read_gmsh_2d(dir.write("square.msh", square_2d_msh));
  REQUIRE(m.cell_count() == 2);
  REQUIRE(m.nodes.size() == 4);
  for (index_t c = 0; c < 2; ++c) CHECK(twice_area(m, c) == Approx(1.0));
  const auto edges = edges_by_patch(m);
  CHECK(edges == std::map<std::string, int>{{"walls", 3}, {"group2", 1}});
  // The unnamed group holds the edge x = 0.
  for (std::size_t e = 0; e < m.boundary_edges.size(); ++e)
    if (m.patch_names[m.boundary_edge_patch[e]] == "group2")
      for (index_t n : m.boundary_edges[e]) CHECK(m.nodes[n][0] == 0.0);
}

TEST_CASE("the cylinder mesh: CCW triangles and quadrangles, named edges, area", "[gmsh]") {
  const Mesh2d m = read_gmsh_2d(mesh_file("cylinder_2d.msh"));
  std::map<index_t, int> sizes;
  double area = 0;
  bool all_ccw = true;
  for (index_t c = 0; c < m.cell_count(); ++c) {
    ++sizes[m.cell_node_offsets[c + 1] - m.cell_node_offsets[c]];
    all_ccw = all_ccw && twice_area(m, c) > 0;
    area += 0.5 * twice_area(m, c);
  }
  CHECK(all_ccw);
  // Gmsh's counts for the file (cases/meshes/README.md).
  CHECK(sizes == std::map<index_t, int>{{3, 348}, {4, 64}});
  const auto edges = edges_by_patch(m);
  CHECK(edges == std::map<std::string, int>{{"inlet", 8}, {"outlet", 8}, {"walls", 32}, {"cylinder", 20}});
  // The hole is the regular 20-gon inscribed in the circle of radius 0.25.
  const double pi = std::acos(-1.0), n = 20, r = 0.25;
  CHECK(area == Approx(8 - 0.5 * n * r * r * std::sin(2 * pi / n)).epsilon(1e-12));
  for (std::size_t e = 0; e < m.boundary_edges.size(); ++e)
    if (m.patch_names[m.boundary_edge_patch[e]] == "cylinder")
      for (index_t k : m.boundary_edges[e]) CHECK(std::hypot(m.nodes[k][0] - 1, m.nodes[k][1] - 1) == Approx(r));
}

TEST_CASE("the boundary-layer cylinder mesh: rings of quadrangles at the wall, the first as thick as asked",
          "[gmsh]") {
  const Mesh2d m = read_gmsh_2d(mesh_file("cylinder_boundary_layer.msh"));
  // cylinder.geo with bl_first = 0.002, bl_ratio = 1.15, bl_thickness = 0.06 (cases/meshes/README.md):
  // quadrangles only in rings around the cylinder (radius 0.5), of radial extents 0.002 · 1.15^k.
  int quads = 0;
  double thinnest = 1, outermost = 0;
  bool all_ccw = true;
  for (index_t c = 0; c < m.cell_count(); ++c) {
    all_ccw = all_ccw && twice_area(m, c) > 0;
    if (m.cell_node_offsets[c + 1] - m.cell_node_offsets[c] != 4) continue;
    ++quads;
    double inner = 1e9, outer = 0;
    for (index_t k = m.cell_node_offsets[c]; k < m.cell_node_offsets[c + 1]; ++k) {
      const double r = std::hypot(m.nodes[m.cell_nodes[k]][0], m.nodes[m.cell_nodes[k]][1]);
      inner = std::min(inner, r);
      outer = std::max(outer, r);
    }
    thinnest = std::min(thinnest, outer - inner);
    outermost = std::max(outermost, outer);
  }
  const int around = edges_by_patch(m).at("cylinder");
  CHECK(all_ccw);
  CHECK(quads > 0);
  CHECK(quads % around == 0);  // whole rings
  CHECK(thinnest == Approx(0.002).epsilon(0.05));
  CHECK(outermost < 0.5 + 0.06 + 0.02);
}

TEST_CASE("ASCII and binary files of the cylinder mesh give identical 2D meshes", "[gmsh]") {
  const Mesh2d a = read_gmsh_2d(mesh_file("cylinder_2d.msh"));
  const Mesh2d b = read_gmsh_2d(mesh_file("cylinder_2d_binary.msh"));
  REQUIRE(a.nodes.size() == b.nodes.size());
  double worst = 0;
  for (std::size_t i = 0; i < a.nodes.size(); ++i)
    worst = std::max(worst, std::hypot(a.nodes[i][0] - b.nodes[i][0], a.nodes[i][1] - b.nodes[i][1]));
  CHECK(worst < 1e-15);
  CHECK(a.cell_node_offsets == b.cell_node_offsets);
  CHECK(a.cell_nodes == b.cell_nodes);
  CHECK(a.patch_names == b.patch_names);
  CHECK(a.boundary_edges == b.boundary_edges);
  CHECK(a.boundary_edge_patch == b.boundary_edge_patch);
}

}  // namespace miniapp::mesh::test
