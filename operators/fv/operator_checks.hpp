#pragma once
#include <string>
#include <vector>

#include "mesh/geometry.hpp"
#include "operators/fv/flow_operators.hpp"

namespace miniapp::fv {

// One discrete identity of the scheme measured on a mesh's operators: the error relative to the
// operator's scale, against the round-off a correct assembly stays under.
struct OperatorCheck {
  std::string name;
  double error = 0;
  double tolerance = 0;
  bool passed() const { return error <= tolerance; }  // a NaN error fails
};

// The identities the symmetry-preserving scheme rests on (thesis §2.2-2.3), on this mesh:
// - closure: max over cells of |Σ_f A_f n_f| / Σ_f A_f (a cell's faces enclose it);
// - Ω G_d = −(M Γ_d)ᵀ per component (the discrete gradient is minus the divergence's adjoint);
// - L = M Gs symmetric;
// - C(u_s) skew-symmetric off its diagonal, for a random face velocity through E_C (C itself is
//   skew-symmetric when M u_s = 0; its diagonal holds ½ M u_s and the outlet fluxes).
// What `miniapp run --selftest` prints for a user's own mesh.
std::vector<OperatorCheck> check_operators(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                           const FlowOperators& ops);

}  // namespace miniapp::fv
