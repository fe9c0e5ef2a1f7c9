// The constant vectors of the boundary values: face velocity, inlet convection and wall/inlet
// diffusion sources (thesis §2.2 with the conditions of docs/discretisation.md).
#include <vector>

#include "operators/fv/face_gradient.hpp"
#include "operators/fv/flow_assembly.hpp"

namespace miniapp::fv::detail {

void assemble_boundary_sources(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, FlowOperators& ops) {
  const FlowBoundaries& boundaries = ops.boundaries;
  boundaries.require_matches(mesh);
  const auto cells = static_cast<std::size_t>(mesh.cell_count());
  ops.boundary_face_velocity.assign(static_cast<std::size_t>(mesh.face_count()), 0.0);
  std::array<std::vector<Triplet>, 3> diffusion;
  for (int d = 0; d < 3; ++d) ops.inlet_convection_source[d].assign(cells, 0.0);

  for (index_t f = mesh.interior_face_count; f < mesh.face_count(); ++f) {
    const BoundaryCondition& bc = boundaries.of_face(mesh, f);
    if (!fixes_velocity(bc.kind)) continue;  // outlets, and slip faces (no flux, no shear)
    const index_t owner = ops.cell_order.old_to_new[mesh.face_owner[f]];
    const double area = geometry.face_area[f];
    const double normal_velocity = dot(bc.velocity, geometry.face_normal[f]);
    ops.boundary_face_velocity[f] = normal_velocity;
    const double conductance = area * inverse_normal_distance(mesh, geometry, f);
    for (int d = 0; d < 3; ++d) {
      // Walls carry no flux (u_b · n = 0), so only inlets convect their value into the domain.
      if (bc.kind == BoundaryKind::inlet) ops.inlet_convection_source[d][owner] += area * normal_velocity * bc.velocity[d];
      // −ν A (u_b − u_own)/δn split: the u_own part is D's diagonal, this is the rest per unit ν.
      if (bc.velocity[d] != 0) diffusion[d].push_back({owner, f, -conductance * bc.velocity[d]});
    }
  }
  for (int d = 0; d < 3; ++d)
    ops.boundary_diffusion_source[d] = csr_from_triplets(mesh.cell_count(), mesh.face_count(), std::move(diffusion[d]));
}

}  // namespace miniapp::fv::detail
