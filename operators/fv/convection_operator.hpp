#pragma once
// The convective operator C(u_s) = M diag(u_s) Π_c (thesis eq. 2.12), skew-symmetric for a
// divergence-free u_s: its face interpolation and its coefficient map E_C. The time loop refreshes
// C's values from u_s by one SpMV with E_C (miniapp/time/convection_diffusion_operator.hpp).
#include "mesh/geometry.hpp"
#include "operators/fv/flow_operators.hpp"
#include "operators/sparse/sell_matrix.hpp"

namespace miniapp::fv {

// Π_c (faces × cells, cells renumbered by `cells`), the face value convected by the flux: ½, ½ on
// interior faces, 1 at the owner of outlet faces, zero rows on walls, slip faces and inlets (their
// flux is prescribed). Γ_d = diag(n_d) Π_c.
CsrMatrix convective_interpolation_matrix(const mesh::Mesh& mesh, const FlowBoundaries& boundaries,
                                          const Permutation& cells);

// E_C (thesis eq. 2.13-2.14): the linear map from the face-normal velocity u_s (faces) to the values
// array of C(u_s) stored as `layout` (the sELL layout of `pattern`, momentum_pattern(ops.laplacian);
// positions by eq. 2.14), so
// that values = E_C u_s. Per interior face f (owner o, neighbour n): ½A_f to (o,o) and (o,n), −½A_f to
// (n,n) and (n,o); outlet faces A_f to (o,o); walls, slip faces and inlets nothing (their flux is fixed: see
// inlet_convection_source). Rows follow the values array of `layout` (padding rows empty), so E_C is
// stored as CSR (thesis §2.4: its rows cannot be reordered).
CsrMatrix convection_map(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, const FlowOperators& ops,
                         const CsrMatrix& pattern, const SellLayout& layout);

}  // namespace miniapp::fv
