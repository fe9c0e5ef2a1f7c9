#include "operators/fv/convection_operator.hpp"

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
                         const SellMatrix& layout) {
  const CsrMatrix interpolation = convective_interpolation_matrix(mesh, ops.boundaries, ops.cell_order);
  return detail::coefficient_map(ops.divergence, interpolation, ops, layout, "convection_map");
}

}  // namespace miniapp::fv
