// Face-based matrices of the scheme that belong to no single operator: Π and the viscous rate.
#include <vector>

#include "operators/fv/face_gradient.hpp"
#include "operators/fv/face_rows.hpp"
#include "operators/fv/flow_assembly.hpp"

namespace miniapp::fv {

CsrMatrix face_interpolation_matrix(const mesh::Mesh& mesh, const Permutation& cells) {
  return detail::face_average(mesh, cells, [](index_t) { return true; });
}

// face_average's rows: a face whose owner is its neighbour (a periodic direction one cell thick) has
// its two halves merged into one entry.
std::vector<index_t> face_interpolation_row_lengths(const mesh::Mesh& mesh) {
  std::vector<index_t> lengths(static_cast<std::size_t>(mesh.face_count()), 1);
#pragma omp parallel for schedule(static)
  for (index_t f = 0; f < mesh.interior_face_count; ++f)
    lengths[f] = mesh.face_owner[f] == mesh.face_neighbour[f] ? 1 : 2;
  return lengths;
}

}  // namespace miniapp::fv

namespace miniapp::fv::detail {

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
