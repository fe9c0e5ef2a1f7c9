#pragma once

// Physical model choices shared by the case files, the operators and the kernels.
namespace miniapp {

// Subgrid-scale model of the LES (none = DNS); operators/kernels/flow_kernels.hpp defines each.
enum class LesModel { none, smagorinsky, wale, vreman, sigma };

// Condition on a boundary patch (periodic pairs are interior faces of the mesh):
//   wall, moving_wall: u = the patch velocity (zero for a wall; tangential for a lid), ∂p/∂n = 0
//   inlet:             u = the patch velocity, ∂p/∂n = 0
//   outlet:            ∂u/∂n = 0, p = 0
//   slip:              u·n = 0 and no shear stress (symmetry plane), ∂p/∂n = 0
enum class BoundaryKind { wall, moving_wall, inlet, outlet, slip };

// A solid wall, at rest or moving: where the wall quantities (u_τ, y⁺) and forces are taken.
constexpr bool is_wall(BoundaryKind kind) { return kind == BoundaryKind::wall || kind == BoundaryKind::moving_wall; }

}  // namespace miniapp
