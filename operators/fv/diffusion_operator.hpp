#pragma once
// The diffusive operator D(ν_s) = −M diag(ν_s) Gs_u, symmetric positive semi-definite: its coefficient
// map E_D. The time loop refreshes D's values from ν_s by one SpMV with E_D when ν_s changes (LES;
// miniapp/time/convection_diffusion_operator.hpp).
#include "mesh/geometry.hpp"
#include "operators/fv/flow_operators.hpp"
#include "operators/sparse/sell_matrix.hpp"

namespace miniapp::fv {

// E_D: face viscosity ν_s → values of D(ν_s) = −M diag(ν_s) Gs_u (velocity Gs: Dirichlet on walls and
// inlets, zero gradient on outlets), same layout rules as convection_map: A_f/δn_f to (o,o) and (n,n),
// −A_f/δn_f to (o,n) and (n,o); wall and inlet faces A_f/δn_f to (o,o); slip faces nothing (no shear).
CsrMatrix diffusion_map(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                        const FlowOperators& ops, const SellMatrix& layout);
// The values of D(ν_s) in `layout`, bitwise E_D ν_s, without building E_D (a constant ν_s).
std::vector<double> diffusion_values(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                     const FlowOperators& ops, const SellMatrix& layout,
                                     const std::vector<double>& face_viscosity);

}  // namespace miniapp::fv
