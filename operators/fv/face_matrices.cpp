#include "operators/fv/face_rows.hpp"
#include "operators/fv/face_gradient.hpp"
#include "operators/fv/flow_assembly.hpp"

namespace miniapp::fv::detail {
namespace {

// ½, ½ on interior faces; 1 at the owner of the boundary faces where include(face).
template <class Include>
CsrMatrix face_average(const mesh::Mesh& mesh, const Permutation& cells, Include include) {
  return face_rows(mesh, &cells, [&](index_t f, auto push) {
    if (!mesh.is_boundary(f)) {
      push(mesh.face_owner[f], 0.5);
      push(mesh.face_neighbour[f], 0.5);
    } else if (include(f)) {
      push(mesh.face_owner[f], 1.0);
    }
  });
}

}  // namespace

CsrMatrix face_interpolation_matrix(const mesh::Mesh& mesh, const Permutation& cells) {
  return face_average(mesh, cells, [](index_t) { return true; });
}

CsrMatrix convective_interpolation_matrix(const mesh::Mesh& mesh, const FlowBoundaries& boundaries,
                                          const Permutation& cells) {
  boundaries.require_matches(mesh);
  return face_average(mesh, cells, [&](index_t f) { return !fixes_velocity(boundaries.of_face(mesh, f).kind); });
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
