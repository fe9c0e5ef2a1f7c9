// Face-based matrices of the scheme that belong to no single operator: Π and the viscous rate.
#include "operators/fv/face_gradient.hpp"
#include "operators/fv/face_rows.hpp"
#include "operators/fv/flow_assembly.hpp"
#include "operators/sparse/csr_rows.hpp"

namespace miniapp::fv::detail {

CsrMatrix face_interpolation_matrix(const mesh::Mesh& mesh, const Permutation& cells) {
  return face_average(mesh, cells, [](index_t) { return true; });
}

// M's pattern (the faces of each cell, in face order) less the faces that diffuse nothing, each with
// its rate: the rows of the transpose of the faces × cells form, built from the rows of M directly.
CsrMatrix viscous_rate_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                              const FlowBoundaries& boundaries, const CsrMatrix& divergence) {
  boundaries.require_matches(mesh);
  const auto diffuses = [&](index_t f) {
    // A cell that is its own neighbour (a periodic direction one cell thick) diffuses nothing there.
    if (!mesh.is_boundary(f)) return mesh.face_owner[f] != mesh.face_neighbour[f];
    return fixes_velocity(boundaries.of_face(mesh, f).kind);
  };
  return csr_from_rows(divergence.rows, divergence.cols, [&] {
    return [&](index_t cell, RowEntries& out) {
      for (index_t p = divergence.row_ptr[cell]; p < divergence.row_ptr[cell + 1]; ++p) {
        const index_t f = divergence.col[p];
        if (diffuses(f)) out.push(f, geometry.face_area[f] * inverse_normal_distance(mesh, geometry, f));
      }
    };
  });
}

}  // namespace miniapp::fv::detail
