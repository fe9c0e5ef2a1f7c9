#pragma once
#include <optional>

#include "operators/backend/device_matrix.hpp"
#include "operators/fv/flow_operators.hpp"

namespace miniapp::time {

// R(u_s, ν_s) = C(u_s) + D(ν_s) in executor memory as one sELL matrix (C and D share the momentum
// pattern, so their values are summed and R is applied to the three velocity components by one
// generalized SpMV), with the coefficient maps that rebuild its values each step (thesis §2.4, eq.
// 2.13-2.14): E_C (operators/fv/convection_operator.hpp) and, with LES, E_D
// (operators/fv/diffusion_operator.hpp), both in CSR.
struct ConvectionDiffusionOperator {
  // `viscosity`: the molecular ν; `les`: whether ν_s changes every step (else D's values are
  // computed once here).
  ConvectionDiffusionOperator(const Executor& exec, const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                              const fv::FlowOperators& ops, index_t slice_height, double viscosity, bool les);

  // values(R) = E_C u_s + values(D), with values(D) = E_D ν_s first when ν_s changes (LES). On outlet
  // faces E_C takes max(u_s, 0): flow entering through an outlet carries no momentum in (backflow
  // control; zero gradient while it leaves).
  void refresh(const Executor& exec, const Vector& face_velocity, const Vector& face_viscosity);

  DeviceSell matrix;                       // R; values rewritten by refresh
  DeviceCsr convection_map;                // E_C: u_s → values(C)
  std::optional<DeviceCsr> diffusion_map;  // E_D: ν_s → values(D), LES only
  Vector diffusion_values;                 // values(D): constant without LES, refreshed with LES
  Vector outlet_mask;                      // faces: 1 on outlet faces; empty without outlets
  Vector convected_velocity;               // faces: u_s with the outlets' inflow clipped to 0

 private:
  // `pattern`: fv::momentum_pattern(ops.laplacian), made for the public constructor alone.
  ConvectionDiffusionOperator(const Executor& exec, const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                              const fv::FlowOperators& ops, const CsrMatrix& pattern, index_t slice_height,
                              double viscosity, bool les);
  ConvectionDiffusionOperator(const Executor& exec, const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                              const fv::FlowOperators& ops, const CsrMatrix& pattern, const SellLayout& layout,
                              double viscosity, bool les);
};

}  // namespace miniapp::time
