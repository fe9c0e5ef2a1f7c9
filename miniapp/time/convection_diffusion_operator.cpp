#include "miniapp/time/convection_diffusion_operator.hpp"

#include <utility>
#include <vector>

#include "operators/fv/convection_operator.hpp"
#include "operators/fv/diffusion_operator.hpp"
#include "operators/kernels/flow_kernels.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {
ConvectionDiffusionOperator::ConvectionDiffusionOperator(const Executor& exec, const mesh::Mesh& mesh,
                                                         const mesh::MeshGeometry& geometry,
                                                         const fv::FlowOperators& ops, index_t slice_height,
                                                         double viscosity, bool les)
    : ConvectionDiffusionOperator(exec, mesh, geometry, ops, fv::momentum_pattern(ops.laplacian), slice_height,
                                  viscosity, les) {}

ConvectionDiffusionOperator::ConvectionDiffusionOperator(const Executor& exec, const mesh::Mesh& mesh,
                                                         const mesh::MeshGeometry& geometry,
                                                         const fv::FlowOperators& ops, const CsrMatrix& pattern,
                                                         index_t slice_height, double viscosity, bool les)
    : ConvectionDiffusionOperator(exec, mesh, geometry, ops, pattern, sell_layout(pattern, slice_height), viscosity,
                                  les) {}

ConvectionDiffusionOperator::ConvectionDiffusionOperator(const Executor& exec, const mesh::Mesh& mesh,
                                                         const mesh::MeshGeometry& geometry,
                                                         const fv::FlowOperators& ops, const CsrMatrix& pattern,
                                                         const SellLayout& layout, double viscosity, bool les)
    : matrix(exec, pattern, layout.slice_height),
      convection_map(exec, fv::convection_map(mesh, geometry, ops, pattern, layout)) {
  // values(D) for ν_s = ν; E_D itself only where ν_s changes (LES).
  if (les) {
    CsrMatrix e_d = fv::diffusion_map(mesh, geometry, ops, pattern, layout);
    const std::vector<double> nu(static_cast<std::size_t>(mesh.face_count()), viscosity);
    diffusion_values = Vector::from_host(exec, reference_spmv(e_d, nu));
    diffusion_map.emplace(exec, std::move(e_d));
  } else {
    diffusion_values = Vector::from_host(exec, fv::diffusion_values(mesh, geometry, ops, pattern, layout, viscosity));
  }
  std::vector<double> mask(static_cast<std::size_t>(mesh.face_count()), 0.0);
  bool outlets = false;
  for (index_t f = mesh.interior_face_count; f < mesh.face_count(); ++f)
    if (ops.boundaries.of_face(mesh, f).kind == BoundaryKind::outlet) {
      mask[f] = 1.0;
      outlets = true;
    }
  if (!outlets) return;
  outlet_mask = Vector::from_host(exec, mask);
  convected_velocity = Vector(exec, mesh.face_count());
}

void ConvectionDiffusionOperator::refresh(const Executor& exec, const Vector& face_velocity,
                                          const Vector& face_viscosity) {
  const Vector* convected = &face_velocity;
  if (outlet_mask.size() > 0) {
    // max(u_s, 0) = u_s + ½(|u_s| − u_s) on outlet faces; elsewhere u_s unchanged.
    abs_value(exec, face_velocity, convected_velocity);
    axpby(exec, -0.5, face_velocity, 0.5, convected_velocity);
    pointwise_multiply(exec, outlet_mask, convected_velocity, convected_velocity);
    axpby(exec, 1.0, face_velocity, 1.0, convected_velocity);
    convected = &convected_velocity;
  }
  spmv(exec, convection_map, *convected, matrix.values());
  if (diffusion_map) spmv(exec, *diffusion_map, face_viscosity, diffusion_values);
  axpby(exec, 1.0, diffusion_values, 1.0, matrix.values());
}

}  // namespace miniapp::time
