// The mixed Gmsh mesh, made large and scrambled, builds the same on any number of threads.
#include <catch2/catch.hpp>

#include <numeric>

#include "../mesh/mesh_checks.hpp"
#include "../mesh/same_mesh.hpp"
#include "gmsh_test_files.hpp"
#include "mesh/gmsh_convert.hpp"
#include "mesh/gmsh_file.hpp"
#include "mesh/mesh_builder.hpp"

namespace miniapp::mesh::test {
namespace {

// i -> i·a mod n for a stride a coprime to n: a fixed permutation that spreads neighbours far apart.
std::vector<index_t> scramble(index_t n) {
  index_t a = 7919;
  while (std::gcd(a, n) != 1) ++a;
  std::vector<index_t> p(n);
  for (index_t i = 0; i < n; ++i) p[i] = static_cast<index_t>(static_cast<long long>(i) * a % n);
  return p;
}

// `copies` copies of `soup` side by side along x, `shift` apart (each closed on its own), with the
// nodes, the cells and the boundary faces of all copies listed in scrambled orders: the node numbers of
// a cell are far apart and unrelated to the cell numbers.
CellSoup scrambled_copies(const CellSoup& soup, index_t copies, double shift) {
  const auto nodes = static_cast<index_t>(soup.nodes.size()), cells = static_cast<index_t>(soup.cell_types.size());
  const auto faces = static_cast<index_t>(soup.boundary_face_patch.size());
  const std::vector<index_t> node_of = scramble(copies * nodes), cell_at = scramble(copies * cells),
                             face_at = scramble(copies * faces);
  CellSoup s;
  s.patch_names = soup.patch_names;
  s.nodes.resize(static_cast<std::size_t>(copies) * nodes);
  for (index_t k = 0; k < copies; ++k)
    for (index_t i = 0; i < nodes; ++i) s.nodes[node_of[k * nodes + i]] = soup.nodes[i] + Vec3{shift * k, 0, 0};
  for (index_t q = 0; q < copies * cells; ++q) {
    const index_t k = cell_at[q] / cells, c = cell_at[q] % cells;
    s.cell_types.push_back(soup.cell_types[c]);
    for (index_t i = soup.cell_node_offsets[c]; i < soup.cell_node_offsets[c + 1]; ++i)
      s.cell_nodes.push_back(node_of[k * nodes + soup.cell_nodes[i]]);
    s.cell_node_offsets.push_back(static_cast<index_t>(s.cell_nodes.size()));
  }
  for (index_t q = 0; q < copies * faces; ++q) {
    const index_t k = face_at[q] / faces, f = face_at[q] % faces;
    s.boundary_face_patch.push_back(soup.boundary_face_patch[f]);
    for (index_t i = soup.boundary_face_node_offsets[f]; i < soup.boundary_face_node_offsets[f + 1]; ++i)
      s.boundary_face_nodes.push_back(node_of[k * nodes + soup.boundary_face_nodes[i]]);
    s.boundary_face_node_offsets.push_back(static_cast<index_t>(s.boundary_face_nodes.size()));
  }
  return s;
}

}  // namespace

TEST_CASE("200 scrambled copies of the mixed mesh build the same on 1 and 3 threads", "[gmsh][threads]") {
  const CellSoup one = gmsh::to_cell_soup(gmsh::read_gmsh_file(mesh_file("mixed.msh")));
  const CellSoup soup = scrambled_copies(one, 200, 3.0);
  REQUIRE(soup.cell_types.size() == 200 * 325);
  check_thread_count_independent([&] { return build_mesh(soup, {}, "scrambled mixed mesh"); });
  const Mesh m = build_mesh(soup, {}, "scrambled mixed mesh");
  check_face_order(m);
  check_mesh(m, compute_geometry(m), 200 * 2.25);
}

}  // namespace miniapp::mesh::test
