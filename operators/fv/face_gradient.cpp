#include "operators/fv/face_gradient.hpp"

#include <string>

#include "operators/fv/face_rows.hpp"

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
                               const FlowBoundaries* boundaries, GradientOf unknown, const Permutation* cells) {
  if (boundaries) boundaries->require_matches(mesh);
  return detail::face_rows(mesh, cells, [&](index_t f, auto push) {
    if (!mesh.is_boundary(f)) {
      const double w = inverse_normal_distance(mesh, geometry, f);
      push(mesh.face_neighbour[f], w);
      push(mesh.face_owner[f], -w);
      return;
    }
    if (!boundaries) return;
    const BoundaryKind kind = boundaries->of_face(mesh, f).kind;
    const bool fixed = unknown == GradientOf::pressure ? fixes_pressure(kind) : fixes_velocity(kind);
    if (fixed) push(mesh.face_owner[f], -inverse_normal_distance(mesh, geometry, f));
  });
}

}  // namespace miniapp::fv
