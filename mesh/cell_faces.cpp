#include "mesh/cell_faces.hpp"

namespace miniapp::mesh {

namespace {
// Gmsh node numbering (the same as VTK's for these four types):
//   tetrahedron 0 1 2 base, 3 apex; pyramid 0 1 2 3 base quad, 4 apex;
//   prism 0 1 2 bottom, 3 4 5 top (3 above 0); hexahedron 0 1 2 3 bottom, 4 5 6 7 top (4 above 0).
constexpr LocalFace tet_faces[] = {{3, {0, 2, 1, 0}}, {3, {0, 1, 3, 0}}, {3, {0, 3, 2, 0}}, {3, {1, 2, 3, 0}}};
constexpr LocalFace pyramid_faces[] = {
    {4, {0, 3, 2, 1}}, {3, {0, 1, 4, 0}}, {3, {1, 2, 4, 0}}, {3, {2, 3, 4, 0}}, {3, {3, 0, 4, 0}}};
constexpr LocalFace prism_faces[] = {
    {3, {0, 2, 1, 0}}, {3, {3, 4, 5, 0}}, {4, {0, 1, 4, 3}}, {4, {1, 2, 5, 4}}, {4, {2, 0, 3, 5}}};
constexpr LocalFace hex_faces[] = {{4, {0, 3, 2, 1}}, {4, {4, 5, 6, 7}}, {4, {0, 1, 5, 4}},
                                   {4, {1, 2, 6, 5}}, {4, {2, 3, 7, 6}}, {4, {3, 0, 4, 7}}};
}  // namespace

std::span<const LocalFace> local_faces(CellType type) {
  switch (type) {
    case CellType::tetrahedron:
      return tet_faces;
    case CellType::pyramid:
      return pyramid_faces;
    case CellType::prism:
      return prism_faces;
    case CellType::hexahedron:
      return hex_faces;
  }
  throw Error("local_faces: unknown cell type " + std::to_string(static_cast<int>(type)));
}

}  // namespace miniapp::mesh
