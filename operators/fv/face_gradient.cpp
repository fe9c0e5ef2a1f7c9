#include "operators/fv/face_gradient.hpp"

#include <string>
#include <vector>

namespace miniapp::fv {

double inverse_normal_distance(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, index_t f) {
  const double delta_n = geometry.face_delta_n[f];
  if (delta_n > 0) return 1.0 / delta_n;
  const std::string cells = mesh.is_boundary(f)
                                ? "boundary face " + std::to_string(f) + " (cell " + std::to_string(mesh.face_owner[f]) +
                                      ") has normal distance " + std::to_string(delta_n) + " from its cell centroid"
                                : "interior face " + std::to_string(f) + " (cells " + std::to_string(mesh.face_owner[f]) +
                                      ", " + std::to_string(mesh.face_neighbour[f]) + ") has normal distance " +
                                      std::to_string(delta_n) + " between its cell centroids";
  // Every operator with a 1/δn coefficient (Gs, D, the viscous rate and sources) ends up here.
  throw Error("finite-volume operators: " + cells + " (degenerate or inverted cells)");
}

CsrMatrix face_gradient_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                               const FlowBoundaries* boundaries, GradientOf unknown) {
  std::vector<Triplet> triplets;
  triplets.reserve(2 * static_cast<std::size_t>(mesh.interior_face_count));
  for (index_t f = 0; f < mesh.interior_face_count; ++f) {
    const double w = inverse_normal_distance(mesh, geometry, f);
    triplets.push_back({f, mesh.face_neighbour[f], w});
    triplets.push_back({f, mesh.face_owner[f], -w});
  }
  if (boundaries) {
    boundaries->require_matches(mesh);
    for (index_t f = mesh.interior_face_count; f < mesh.face_count(); ++f) {
      const BoundaryKind kind = boundaries->of_face(mesh, f).kind;
      const bool fixed = unknown == GradientOf::pressure ? fixes_pressure(kind) : fixes_velocity(kind);
      if (fixed) triplets.push_back({f, mesh.face_owner[f], -inverse_normal_distance(mesh, geometry, f)});
    }
  }
  return csr_from_triplets(mesh.face_count(), mesh.cell_count(), std::move(triplets));
}

}  // namespace miniapp::fv
