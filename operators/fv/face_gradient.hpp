#pragma once
#include "mesh/geometry.hpp"
#include "mesh/mesh.hpp"
#include "operators/fv/boundary_conditions.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "operators/sparse/reorder.hpp"

namespace miniapp::fv {

// The unknown whose boundary conditions set the boundary rows of Gs.
enum class GradientOf { pressure, velocity };

// The face-normal gradient Gs (faces × cells) of thesis eq. 1.7: on interior faces (periodic ones
// included) (Gs p)_f = (p_nb − p_own) / δn_f with δn_f = |n_f · (x_nb − x_own)|.
// Boundary rows: without `boundaries` all empty (homogeneous Neumann). With them, a face whose
// condition fixes the unknown gets (Gs p)_f = −p_own / δn_f (δn_f to the face centroid), the
// homogeneous part of a Dirichlet condition (the prescribed value goes to a source): for the pressure
// outlets (p = 0), for the velocity walls and inlets (not slip faces); the other boundary rows stay empty.
// Cells are numbered by `cells` (new_to_old) when given, else as in the mesh.
// Throws miniapp::Error when a face used has δn_f ≤ 0, or `boundaries` does not match the patches.
CsrMatrix face_gradient_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                               const FlowBoundaries* boundaries = nullptr, GradientOf unknown = GradientOf::pressure,
                               const Permutation* cells = nullptr);

// 1/δn_f of face f; throws miniapp::Error (naming the face and its cells) when δn_f ≤ 0.
double inverse_normal_distance(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, index_t face);

}  // namespace miniapp::fv
