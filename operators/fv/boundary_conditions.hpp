#pragma once
#include <vector>

#include "mesh/mesh.hpp"
#include "core/physics.hpp"

namespace miniapp::fv {

using miniapp::BoundaryKind;

struct BoundaryCondition {
  BoundaryKind kind = BoundaryKind::wall;
  Vec3 velocity{0, 0, 0};
};

// True for wall, moving wall and inlet: Dirichlet velocity (u = velocity in the viscous term).
bool fixes_velocity(BoundaryKind kind);
// True for every kind but the outlet: the face-normal velocity u_s = velocity · n_f is prescribed
// (zero on slip faces, which carry no flux and no shear).
bool fixes_face_velocity(BoundaryKind kind);
// True for outlets: p = 0 on the face.
bool fixes_pressure(BoundaryKind kind);

// One condition per patch of the mesh, indexed like mesh.patches.
struct FlowBoundaries {
  std::vector<BoundaryCondition> by_patch;

  // True when some patch fixes the pressure (outlet): then the Laplacian is non-singular.
  bool has_pressure_outlet() const;
  // The condition of boundary face f (f ≥ interior_face_count). Throws miniapp::Error if f is not on a
  // patch or the conditions do not match the mesh's patches (see require_matches).
  const BoundaryCondition& of_face(const mesh::Mesh& mesh, index_t face) const;
  // Throws miniapp::Error unless there is one condition per patch of `mesh`.
  void require_matches(const mesh::Mesh& mesh) const;
};

}  // namespace miniapp::fv
