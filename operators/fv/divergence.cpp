#include "operators/fv/divergence.hpp"

#include "operators/fv/face_rows.hpp"

namespace miniapp::fv {

// The transpose of Mᵀ, built face by face: rows come out sorted by face.
CsrMatrix divergence_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, const Permutation* cells) {
  return transpose(detail::face_rows(mesh, cells, [&](index_t f, auto push) {
    push(mesh.face_owner[f], geometry.face_area[f]);
    if (!mesh.is_boundary(f)) push(mesh.face_neighbour[f], -geometry.face_area[f]);
  }));
}

}  // namespace miniapp::fv
