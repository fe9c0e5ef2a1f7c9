#include "operators/fv/convection_operator.hpp"

#include <string>

#include "operators/fv/coefficient_map.hpp"
#include "operators/fv/face_rows.hpp"

namespace miniapp::fv {

CsrMatrix convective_interpolation_matrix(const mesh::Mesh& mesh, const FlowBoundaries& boundaries,
                                          const Permutation& cells) {
  boundaries.require_matches(mesh);
  return detail::face_average(mesh, cells,
                              [&](index_t f) { return !fixes_face_velocity(boundaries.of_face(mesh, f).kind); });
}

// C(u_s) = M diag(u_s) Π_c: (Cφ)_i = Σ_f ±A_f u_f (φ at face f), thesis eq. 2.12.
CsrMatrix convection_map(const mesh::Mesh& mesh, const mesh::MeshGeometry&, const FlowOperators& ops,
                         const CsrMatrix& pattern, const SellLayout& layout) {
  if (ops.convective_interpolation.rows != mesh.face_count())
    throw Error("convection_map: the operators hold no Pi_c for the mesh's " + std::to_string(mesh.face_count()) +
                " faces (it is released once the momentum operator is made)");
  return detail::coefficient_map(ops.divergence, ops.convective_interpolation, pattern, layout, "convection_map");
}

}  // namespace miniapp::fv
