#pragma once
#include "mesh/geometry.hpp"
#include "mesh/mesh.hpp"
#include "operators/fv/boundary_conditions.hpp"
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::fv {

// The finite-volume Laplacian L = M · Gs (cells × cells), thesis eq. 1.7:
// (L p)_k = Σ_{f ∋ k} A_f (p_j − p_k) / δn_f over the neighbours j of k, Neumann on boundaries.
// L is symmetric, negative semi-definite, and every row sums to zero (constants are its null space on
// a connected mesh). Pressure systems solve −L p = b, which is symmetric positive semi-definite.
// With `boundaries`, Gs is the pressure gradient of face_gradient_matrix: each outlet face adds
// −A_f/δn_f to its owner's diagonal (p = 0 there) and L becomes negative definite.
CsrMatrix laplacian_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                           const FlowBoundaries* boundaries = nullptr);

}  // namespace miniapp::fv
