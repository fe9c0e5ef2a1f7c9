#pragma once
#include <array>
#include <optional>
#include <vector>

#include "core/stage_profile.hpp"
#include "mesh/geometry.hpp"
#include "operators/fv/boundary_conditions.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "operators/sparse/reorder.hpp"
#include "operators/sparse/sell_matrix.hpp"

namespace miniapp::fv {

// Every operator of the collocated symmetry-preserving scheme (thesis §2.2-2.3, docs/discretisation.md)
// as a host CSR matrix, assembled once. Cells are numbered in the order of `cell_order` (the
// reordering of the Laplacian's rows, applied to every operator), faces in mesh order.
// Notation: A_f area, n_f unit normal out of the owner, δn_f as in mesh::MeshGeometry, Ω_c volume.
struct FlowOperators {
  Permutation cell_order;              // new_to_old: mesh cell of each row
  FlowBoundaries boundaries;           // the conditions assembled in (E_C and E_D need them again)

  std::vector<double> volume;          // Ω (diagonal, as a vector)
  std::vector<double> inverse_volume;  // Ω⁻¹

  CsrMatrix divergence;     // M, cells × faces: +A_f at the owner, −A_f at the neighbour
  CsrMatrix face_gradient;  // Gs, faces × cells: (p_nb − p_own)/δn on interior faces; −p_own/δn on
                            // outlet faces (p = 0 there); zero rows on walls, slip faces and inlets
  CsrMatrix laplacian;      // L = M Gs, cells × cells: symmetric, negative semi-definite
  CsrMatrix convective_interpolation;         // Π_c, faces × cells (convective_interpolation_matrix): Γ
                                             // and E_C are made from it; the upload releases it
  CsrMatrix cell_to_face;                    // Γc→s = [Γ_0 Γ_1 Γ_2], faces × 3 cells, the components'
                                             // columns interleaved (column 3j + d is Γ_d's column j; the
                                             // time loop applies it by spmv_interleaved): Γ_d holds ½ n_d
                                             // at owner and neighbour of interior faces, n_d at the owner
                                             // of outlet faces, nothing on walls, slip faces and inlets;
                                             // entries with n_d = 0 are not stored
  std::array<CsrMatrix, 3> cell_divergence;  // M Γc→s per component, cells × cells
  CsrMatrix viscous_rate;        // cells × faces: A_f/δn_f at owner and neighbour of interior faces and
                                 // at the owner of wall/inlet faces (CFL viscous limit: Σ ν_f A_f/δn_f)

  // Prescribed face-normal velocity u_bc·n_f on wall and inlet faces, 0 elsewhere (u_s gets it added).
  std::vector<double> boundary_face_velocity;
  // Constant convective flux of the inlet values: s_d = Σ_inlet A_f (u_in·n_f) u_in,d per cell.
  std::array<std::vector<double>, 3> inlet_convection_source;
  // Wall/inlet diffusion source per unit viscosity, cells × faces: −A_f u_b,d / δn_f at the owner of
  // wall and inlet faces; the source of D is (boundary_diffusion_source[d] · ν_s).
  std::array<CsrMatrix, 3> boundary_diffusion_source;
};

// The common sparsity pattern of C(u_s) and D(ν_s): each cell and its face neighbours (values 0),
// from the Laplacian's pattern (a missing diagonal added). Made where it is used rather than held with
// the operators: the set-up's host peak is the moment they are all held.
CsrMatrix momentum_pattern(const CsrMatrix& laplacian);
// Its row lengths alone, without making it (for a memory estimate).
std::vector<index_t> momentum_row_lengths(const CsrMatrix& laplacian);

// The cell order of one rank's time loop, from the Laplacian in mesh order: its row_grouping for a
// mesh whose cells are in lattice order (mesh::Mesh::cells_in_lattice_order), else row_grouping_rcm.
Permutation default_cell_order(const mesh::Mesh& mesh, const CsrMatrix& mesh_order_laplacian);

// Assembles every operator, cells renumbered by `cell_order` (new_to_old) when given, else by
// default_cell_order (a rank's mesh comes already in its owned-then-halo order).
// Throws miniapp::Error if `boundaries` does not have one condition per mesh patch. The time of each
// part goes to `profile` when given.
FlowOperators assemble_flow_operators(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                      const FlowBoundaries& boundaries,
                                      const std::optional<Permutation>& cell_order = std::nullopt,
                                      StageProfile* profile = nullptr);

// Operators made from the assembled ones or the mesh alone, each where it is uploaded
// (time::DeviceOperators) rather than assembled beside the others: the set-up's host peak is the
// mesh and every assembled operator at once. |M| (the CFL's Σ A|u_s|) is absolute(divergence).
// G_d = −Ω⁻¹ (M Γ_d)ᵀ, cells × cells (ΩG = −Mᵀ duality), from cell_divergence[d] and inverse_volume.
CsrMatrix cell_gradient_matrix(const FlowOperators& ops, int d);
// Π, faces × cells (cells renumbered by `cells`): ½, ½ on interior faces, 1 at the owner of boundary
// faces (eddy viscosity to faces).
CsrMatrix face_interpolation_matrix(const mesh::Mesh& mesh, const Permutation& cells);
// Π's row lengths, without making it (the memory estimate).
std::vector<index_t> face_interpolation_row_lengths(const mesh::Mesh& mesh);

}  // namespace miniapp::fv
