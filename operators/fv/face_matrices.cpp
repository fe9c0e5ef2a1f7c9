// Face-based matrices of the scheme that belong to no single operator: Π and the viscous rate.
#include "operators/fv/face_gradient.hpp"
#include "operators/fv/face_rows.hpp"
#include "operators/fv/flow_assembly.hpp"

namespace miniapp::fv::detail {

CsrMatrix face_interpolation_matrix(const mesh::Mesh& mesh, const Permutation& cells) {
  return face_average(mesh, cells, [](index_t) { return true; });
}

// The transpose of its faces × cells form: rows come out sorted by face.
CsrMatrix viscous_rate_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                              const FlowBoundaries& boundaries, const Permutation& cells) {
  boundaries.require_matches(mesh);
  return transpose(face_rows(mesh, &cells, [&](index_t f, auto push) {
    const bool interior = !mesh.is_boundary(f);
    if (!interior && !fixes_velocity(boundaries.of_face(mesh, f).kind)) return;
    // A cell that is its own neighbour (a periodic direction one cell thick) diffuses nothing there.
    if (interior && mesh.face_owner[f] == mesh.face_neighbour[f]) return;
    const double rate = geometry.face_area[f] * inverse_normal_distance(mesh, geometry, f);
    push(mesh.face_owner[f], rate);
    if (interior) push(mesh.face_neighbour[f], rate);
  }));
}

}  // namespace miniapp::fv::detail
