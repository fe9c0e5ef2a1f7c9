#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "mesh/mesh.hpp"

namespace miniapp::mesh {

// One face of a reference cell: `size` (3 or 4) local node numbers in Gmsh order, listed so that the
// right-hand normal points out of a positively oriented cell.
struct LocalFace {
  std::uint8_t size;
  std::array<std::uint8_t, 4> nodes;
};

// The faces of a cell type (4 for tetrahedra, 5 for pyramids and prisms, 6 for hexahedra).
std::span<const LocalFace> local_faces(CellType type);

// The largest number of faces of any cell type (6, hexahedra).
inline constexpr int max_cell_faces = 6;

}  // namespace miniapp::mesh
