#pragma once
// Hand-made cell soups for the builder tests.
//
// mixed_soup: a hand-made conforming mesh of every cell type: a unit-cube hexahedron, a pyramid on its top face,
// a prism on its x = 1 face, a tetrahedron resting on both (sharing a triangle with each) and a second
// tetrahedron on that one, listed in mirrored node order to exercise the builder's orientation check.
#include "mesh/mesh_builder.hpp"

namespace miniapp::mesh::test {

// Interior faces: hex-pyramid, hex-prism, pyramid-tet, prism-tet, tet-tet.
inline constexpr index_t mixed_interior_faces = 5;

inline CellSoup mixed_soup() {
  CellSoup s;
  s.nodes = {{0, 0, 0},      {1, 0, 0}, {1, 1, 0}, {0, 1, 0},       {0, 0, 1},
             {1, 0, 1},      {1, 1, 1}, {0, 1, 1}, {0.5, 0.5, 1.5},  // 8: pyramid apex
             {1.5, 0.5, 0},                                          // 9: prism, bottom
             {1.5, 0.5, 1},                                          // 10: prism, top
             {1.2, 1.2, 1.4}};                                       // 11: apex of the second tetrahedron
  s.add_cell(CellType::hexahedron, {0, 1, 2, 3, 4, 5, 6, 7});
  s.add_cell(CellType::pyramid, {4, 5, 6, 7, 8});
  s.add_cell(CellType::prism, {1, 2, 9, 5, 6, 10});
  s.add_cell(CellType::tetrahedron, {5, 6, 8, 10});
  s.add_cell(CellType::tetrahedron, {6, 10, 8, 11});  // mirrored: negative Jacobian
  const index_t walls = s.add_patch("walls"), top = s.add_patch("top");
  for (auto f : {std::initializer_list<index_t>{0, 1, 2, 3}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 3, 7, 4}})
    s.add_boundary_face(walls, f);
  for (auto f : {std::initializer_list<index_t>{1, 2, 9}, {2, 9, 10, 6}, {9, 1, 5, 10}}) s.add_boundary_face(walls, f);
  for (auto f : {std::initializer_list<index_t>{4, 5, 8},
                 {6, 7, 8},
                 {7, 4, 8},
                 {5, 8, 10},
                 {6, 8, 11},
                 {8, 10, 11},
                 {6, 10, 11}})
    s.add_boundary_face(top, f);
  return s;
}

// A row of `count` unit hexahedra along x, with patches xmin, xmax and sides (the other four sides).
inline CellSoup hex_row_soup(index_t count) {
  CellSoup s;
  for (double z : {0.0, 1.0})
    for (double y : {0.0, 1.0})
      for (index_t i = 0; i <= count; ++i) s.nodes.push_back({static_cast<double>(i), y, z});
  const auto n = [count](index_t i, index_t j, index_t k) { return i + (count + 1) * (j + 2 * k); };
  for (index_t i = 0; i < count; ++i)
    s.add_cell(CellType::hexahedron, {n(i, 0, 0), n(i + 1, 0, 0), n(i + 1, 1, 0), n(i, 1, 0), n(i, 0, 1),
                                      n(i + 1, 0, 1), n(i + 1, 1, 1), n(i, 1, 1)});
  const index_t xmin = s.add_patch("xmin"), xmax = s.add_patch("xmax"), sides = s.add_patch("sides");
  s.add_boundary_face(xmin, {n(0, 0, 0), n(0, 1, 0), n(0, 1, 1), n(0, 0, 1)});
  s.add_boundary_face(xmax, {n(count, 0, 0), n(count, 1, 0), n(count, 1, 1), n(count, 0, 1)});
  for (index_t i = 0; i < count; ++i) {
    s.add_boundary_face(sides, {n(i, 0, 0), n(i + 1, 0, 0), n(i + 1, 1, 0), n(i, 1, 0)});
    s.add_boundary_face(sides, {n(i, 0, 1), n(i + 1, 0, 1), n(i + 1, 1, 1), n(i, 1, 1)});
    s.add_boundary_face(sides, {n(i, 0, 0), n(i + 1, 0, 0), n(i + 1, 0, 1), n(i, 0, 1)});
    s.add_boundary_face(sides, {n(i, 1, 0), n(i + 1, 1, 0), n(i + 1, 1, 1), n(i, 1, 1)});
  }
  return s;
}

}  // namespace miniapp::mesh::test
