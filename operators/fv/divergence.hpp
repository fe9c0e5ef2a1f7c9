#pragma once
#include "mesh/geometry.hpp"
#include "mesh/mesh.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "operators/sparse/reorder.hpp"

namespace miniapp::fv {

// The divergence operator M (cells × faces) of the thesis (§2.2, eq. 2.3): for a face flux field u_s
// (velocity projected on the unit normal, oriented out of the owner), (M u_s)_c = Σ_f ±A_f u_f is
// the net volumetric outflow of cell c. Entries: M[owner(f), f] = +A_f, M[neighbour(f), f] = −A_f;
// a boundary face has only its owner entry. Periodic faces are interior faces like any other.
// Cells (rows) are numbered by `cells` (new_to_old) when given, else as in the mesh.
CsrMatrix divergence_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                            const Permutation* cells = nullptr);

}  // namespace miniapp::fv
