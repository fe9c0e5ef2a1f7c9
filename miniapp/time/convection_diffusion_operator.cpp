#include "miniapp/time/convection_diffusion_operator.hpp"

#include <vector>

#include "operators/fv/convection_operator.hpp"
#include "operators/fv/diffusion_operator.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {
namespace {

// values(D) for a constant ν_s = ν.
std::vector<double> constant_diffusion_values(const CsrMatrix& e_d, index_t faces, double viscosity) {
  return reference_spmv(e_d, std::vector<double>(static_cast<std::size_t>(faces), viscosity));
}

}  // namespace

ConvectionDiffusionOperator::ConvectionDiffusionOperator(const Executor& exec, const mesh::Mesh& mesh,
                                                         const mesh::MeshGeometry& geometry,
                                                         const fv::FlowOperators& ops, index_t slice_height,
                                                         double viscosity, bool les)
    : ConvectionDiffusionOperator(exec, mesh, geometry, ops, to_sell(ops.momentum_pattern, slice_height), viscosity,
                                  les) {}

ConvectionDiffusionOperator::ConvectionDiffusionOperator(const Executor& exec, const mesh::Mesh& mesh,
                                                         const mesh::MeshGeometry& geometry,
                                                         const fv::FlowOperators& ops, const SellMatrix& layout,
                                                         double viscosity, bool les)
    : matrix(exec, layout), convection_map(exec, fv::convection_map(mesh, geometry, ops, layout)) {
  const CsrMatrix e_d = fv::diffusion_map(mesh, geometry, ops, layout);
  diffusion_values = Vector::from_host(exec, constant_diffusion_values(e_d, mesh.face_count(), viscosity));
  if (les) diffusion_map.emplace(exec, e_d);
}

void ConvectionDiffusionOperator::refresh(const Executor& exec, const Vector& face_velocity,
                                          const Vector& face_viscosity) {
  spmv(exec, convection_map, face_velocity, matrix.values());
  if (diffusion_map) spmv(exec, *diffusion_map, face_viscosity, diffusion_values);
  axpby(exec, 1.0, diffusion_values, 1.0, matrix.values());
}

}  // namespace miniapp::time
