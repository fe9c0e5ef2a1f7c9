#include "operators/fv/boundary_conditions.hpp"

#include <algorithm>
#include <string>

namespace miniapp::fv {

bool fixes_velocity(BoundaryKind kind) { return kind != BoundaryKind::outlet && kind != BoundaryKind::slip; }

bool fixes_face_velocity(BoundaryKind kind) { return kind != BoundaryKind::outlet; }

bool fixes_pressure(BoundaryKind kind) { return kind == BoundaryKind::outlet; }

bool FlowBoundaries::has_pressure_outlet() const {
  return std::any_of(by_patch.begin(), by_patch.end(), [](const BoundaryCondition& c) { return fixes_pressure(c.kind); });
}

void FlowBoundaries::require_matches(const mesh::Mesh& mesh) const {
  if (by_patch.size() != mesh.patches.size())
    throw Error("flow boundary conditions: " + std::to_string(by_patch.size()) + " conditions given for a mesh with " +
                std::to_string(mesh.patches.size()) + " boundary patches (one condition per patch is needed)");
}

// Patches are few (a handful), so a linear scan per face costs less than a face-indexed table.
const BoundaryCondition& FlowBoundaries::of_face(const mesh::Mesh& mesh, index_t face) const {
  require_matches(mesh);
  for (std::size_t p = 0; p < mesh.patches.size(); ++p) {
    const mesh::Patch& patch = mesh.patches[p];
    if (face >= patch.first_face && face < patch.first_face + patch.face_count) return by_patch[p];
  }
  throw Error("flow boundary conditions: face " + std::to_string(face) + " lies on no boundary patch (the mesh has " +
              std::to_string(mesh.interior_face_count) + " interior faces of " + std::to_string(mesh.face_count()) +
              ")");
}

}  // namespace miniapp::fv
