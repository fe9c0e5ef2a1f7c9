#include <cstdint>

#include "mesh/generators.hpp"
#include "mesh/mesh_builder.hpp"
#include "mesh/spacing.hpp"

namespace miniapp::mesh {

namespace {

constexpr const char* axis_names[3] = {"x", "y", "z"};

// The nodes of a box lattice, i fastest; node(i, j, k) is the index of lattice point (i, j, k).
struct BoxLattice {
  std::array<index_t, 3> n;  // cells per axis

  index_t node(index_t i, index_t j, index_t k) const { return i + (n[0] + 1) * (j + (n[1] + 1) * k); }
  index_t node(const std::array<index_t, 3>& ijk) const { return node(ijk[0], ijk[1], ijk[2]); }
};

void check_box(const BoxSpec& spec, const std::string& source) {
  std::int64_t cells = 1, nodes = 1;
  for (int a = 0; a < 3; ++a) {
    check_axis(spec.cells[a], spec.origin[a], spec.length[a], spec.stretch[a], source + ": axis " + axis_names[a]);
    cells *= spec.cells[a];
    nodes *= spec.cells[a] + 1;
  }
  checked_index(static_cast<std::size_t>(6 * cells), source + ": cells (6 tetrahedra each for make_tet_box)");
  checked_index(static_cast<std::size_t>(nodes), source + ": nodes");
}

// Nodes of the box and its six patches xmin, xmax, ymin, ymax, zmin, zmax; each boundary lattice square
// becomes one quad or, when `triangles`, two triangles split along the diagonal from its (0,0) to its
// (1,1) corner (the split of the Kuhn tetrahedra's faces).
CellSoup box_soup(const BoxSpec& spec, const BoxLattice& lat, bool triangles) {
  CellSoup soup;
  std::array<std::vector<double>, 3> x;
  for (int a = 0; a < 3; ++a)
    x[a] = stretched_coordinates(spec.cells[a], spec.origin[a], spec.length[a], spec.stretch[a]);
  soup.nodes.reserve(static_cast<std::size_t>(lat.node(lat.n)) + 1);
  for (index_t k = 0; k <= lat.n[2]; ++k)
    for (index_t j = 0; j <= lat.n[1]; ++j)
      for (index_t i = 0; i <= lat.n[0]; ++i) soup.nodes.push_back({x[0][i], x[1][j], x[2][k]});
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    for (int side = 0; side < 2; ++side) {
      const index_t patch = soup.add_patch(std::string(axis_names[a]) + (side ? "max" : "min"));
      std::array<index_t, 3> p{};
      p[a] = side ? lat.n[a] : 0;
      for (index_t u = 0; u < lat.n[b]; ++u)
        for (index_t v = 0; v < lat.n[c]; ++v) {
          const auto corner = [&](index_t du, index_t dv) {
            p[b] = u + du;
            p[c] = v + dv;
            return lat.node(p);
          };
          const index_t q00 = corner(0, 0), q10 = corner(1, 0), q01 = corner(0, 1), q11 = corner(1, 1);
          if (!triangles) {
            soup.add_boundary_face(patch, {q00, q10, q11, q01});
          } else {
            soup.add_boundary_face(patch, {q00, q10, q11});
            soup.add_boundary_face(patch, {q00, q01, q11});
          }
        }
    }
  }
  return soup;
}

std::vector<PeriodicRequest> box_links(const BoxSpec& spec) {
  std::vector<PeriodicRequest> links;
  for (int a = 0; a < 3; ++a) {
    if (!spec.periodic[a]) continue;
    Vec3 t;
    t[a] = spec.length[a];
    links.push_back({std::string(axis_names[a]) + "min", std::string(axis_names[a]) + "max", t});
  }
  return links;
}

// Calls fn(i, j, k) for every lattice cell, i fastest.
template <class Fn>
void for_each_box_cell(const BoxLattice& lat, Fn fn) {
  for (index_t k = 0; k < lat.n[2]; ++k)
    for (index_t j = 0; j < lat.n[1]; ++j)
      for (index_t i = 0; i < lat.n[0]; ++i) fn(i, j, k);
}

}  // namespace

Mesh make_hex_box(const BoxSpec& spec) {
  const std::string source = "make_hex_box";
  check_box(spec, source);
  const BoxLattice lat{spec.cells};
  CellSoup soup = box_soup(spec, lat, false);
  const std::size_t cells = static_cast<std::size_t>(lat.n[0]) * lat.n[1] * lat.n[2];
  soup.cell_types.reserve(cells);
  soup.cell_node_offsets.reserve(cells + 1);
  soup.cell_nodes.reserve(8 * cells);
  for_each_box_cell(lat, [&](index_t i, index_t j, index_t k) {
    soup.add_cell(CellType::hexahedron, {lat.node(i, j, k), lat.node(i + 1, j, k), lat.node(i + 1, j + 1, k),
                                         lat.node(i, j + 1, k), lat.node(i, j, k + 1), lat.node(i + 1, j, k + 1),
                                         lat.node(i + 1, j + 1, k + 1), lat.node(i, j + 1, k + 1)});
  });
  return build_mesh(soup, box_links(spec), source);
}

Mesh make_tet_box(const BoxSpec& spec) {
  const std::string source = "make_tet_box";
  check_box(spec, source);
  const BoxLattice lat{spec.cells};
  CellSoup soup = box_soup(spec, lat, true);
  // Kuhn's split: one tetrahedron per axis order (p0, p1, p2), walking from corner (0,0,0) to (1,1,1)
  // along e_p0, e_p1, e_p2. Odd orders list their middle vertices swapped to keep a positive volume.
  constexpr int orders[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {1, 0, 2}, {0, 2, 1}, {2, 1, 0}};
  for_each_box_cell(lat, [&](index_t i, index_t j, index_t k) {
    for (int t = 0; t < 6; ++t) {
      std::array<index_t, 3> p{i, j, k};
      const index_t v0 = lat.node(p);
      ++p[orders[t][0]];
      const index_t v1 = lat.node(p);
      ++p[orders[t][1]];
      const index_t v2 = lat.node(p);
      const index_t v3 = lat.node(i + 1, j + 1, k + 1);
      if (t < 3)
        soup.add_cell(CellType::tetrahedron, {v0, v1, v2, v3});
      else
        soup.add_cell(CellType::tetrahedron, {v0, v2, v1, v3});
    }
  });
  return build_mesh(soup, box_links(spec), source);
}

}  // namespace miniapp::mesh
