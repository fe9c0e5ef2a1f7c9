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
CsrMatrix diffusion_map(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, const FlowOperators& ops,
                        const CsrMatrix& pattern, const SellLayout& layout);
// The values of D(ν) in `layout` for a constant ν (no LES), from the Laplacian L = M Gs_p instead of
// E_D: D = −ν (L + B), B diagonal, from the boundary faces whose velocity and pressure conditions
// differ (walls and inlets fix the velocity, outlets the pressure). E_D ν to round-off (the diagonal
// sums its faces' terms before multiplying by ν), without building Gs_u or visiting each face's
// products. Same checks of `layout` as diffusion_map.
std::vector<double> diffusion_values(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                     const FlowOperators& ops, const CsrMatrix& pattern, const SellLayout& layout,
                                     double viscosity);

}  // namespace miniapp::fv
