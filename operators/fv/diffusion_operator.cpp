#include "operators/fv/diffusion_operator.hpp"

#include "operators/fv/coefficient_map.hpp"
#include "operators/fv/face_gradient.hpp"

namespace miniapp::fv {

namespace {

CsrMatrix minus_velocity_gradient(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                  const FlowOperators& ops) {
  CsrMatrix minus_gradient =
      face_gradient_matrix(mesh, geometry, &ops.boundaries, GradientOf::velocity, &ops.cell_order);
  for (double& v : minus_gradient.val) v = -v;
  return minus_gradient;
}

}  // namespace

// D(ν_s) = M diag(ν_s) (−Gs_u).
CsrMatrix diffusion_map(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, const FlowOperators& ops,
                        const SellMatrix& layout) {
  return detail::coefficient_map(ops.divergence, minus_velocity_gradient(mesh, geometry, ops), ops, layout,
                                 "diffusion_map");
}

std::vector<double> diffusion_values(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                     const FlowOperators& ops, const SellMatrix& layout,
                                     const std::vector<double>& face_viscosity) {
  return detail::coefficient_values(ops.divergence, minus_velocity_gradient(mesh, geometry, ops), ops, layout,
                                    face_viscosity, "diffusion_values");
}

}  // namespace miniapp::fv
