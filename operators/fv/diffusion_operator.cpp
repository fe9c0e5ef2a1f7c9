#include "operators/fv/diffusion_operator.hpp"

#include "operators/fv/coefficient_map.hpp"
#include "operators/fv/face_gradient.hpp"

namespace miniapp::fv {

// D(ν_s) = M diag(ν_s) (−Gs_u).
CsrMatrix diffusion_map(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, const FlowOperators& ops,
                        const SellMatrix& layout) {
  CsrMatrix minus_gradient =
      face_gradient_matrix(mesh, geometry, &ops.boundaries, GradientOf::velocity, &ops.cell_order);
  for (double& v : minus_gradient.val) v = -v;
  return detail::coefficient_map(ops.divergence, minus_gradient, ops, layout, "diffusion_map");
}

}  // namespace miniapp::fv
