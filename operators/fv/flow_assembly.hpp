#pragma once
// Pieces of assemble_flow_operators shared between its source files (not a public interface).
// Cells are numbered by `cells` (new_to_old: FlowOperators::cell_order), faces as in the mesh.
#include "mesh/geometry.hpp"
#include "operators/fv/flow_operators.hpp"

namespace miniapp::fv::detail {

// cells × faces: A_f/δn_f at owner and neighbour of interior faces and at the owner of faces that fix
// the velocity.
CsrMatrix viscous_rate_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                              const FlowBoundaries& boundaries, const Permutation& cells);

// Fills boundary_face_velocity, inlet_convection_source and boundary_diffusion_source of `ops`
// (whose boundaries and cell_order are set), cells in ops.cell_order.
void assemble_boundary_sources(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, FlowOperators& ops);

}  // namespace miniapp::fv::detail
