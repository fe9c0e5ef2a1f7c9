#include "mesh/mesh.hpp"

namespace miniapp::mesh {

int node_count(CellType type) {
  switch (type) {
    case CellType::tetrahedron:
      return 4;
    case CellType::pyramid:
      return 5;
    case CellType::prism:
      return 6;
    case CellType::hexahedron:
      return 8;
  }
  throw Error("node_count: unknown cell type " + std::to_string(static_cast<int>(type)));
}

std::string_view name(CellType type) {
  switch (type) {
    case CellType::tetrahedron:
      return "tetrahedron";
    case CellType::pyramid:
      return "pyramid";
    case CellType::prism:
      return "prism";
    case CellType::hexahedron:
      return "hexahedron";
  }
  return "unknown";
}

const Patch* Mesh::find_patch(std::string_view patch_name) const {
  for (const Patch& p : patches)
    if (p.name == patch_name) return &p;
  return nullptr;
}

}  // namespace miniapp::mesh
