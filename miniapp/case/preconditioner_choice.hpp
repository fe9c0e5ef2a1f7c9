#pragma once
#include "miniapp/case/case_config.hpp"

namespace miniapp::cases {

// From this many cells of the whole mesh up, numerics.preconditioner = "auto" takes AMG on the PCG
// path (docs/amg.md: cavity-3d at 32³ steps faster with it on the CPU and on one H200, the smallest size
// measured on both; below it a GPU solve is bound by kernel launches, of which an AMG iteration makes
// about three times as many as AIP-1's).
inline constexpr long long amg_default_cells = 32'768;
// The same for a mesh one cell thick (one_cell_thick): its pressure system is a 2D Laplacian, on which
// AIP-1's iterations grow with the cells across, √cells instead of ∛cells, so that AMG pays from fewer
// cells (docs/amg.md).
inline constexpr long long amg_default_planar_cells = 128 * 128;

// A generator's box with one cell along an axis, or a 2D mesh file extruded by one layer.
bool one_cell_thick(const MeshConfig& mesh);

// numerics.preconditioner = "auto", once the mesh is made and numerics.poisson is final (`cells`: of
// the whole mesh; `planar`: one_cell_thick): AMG on the PCG path from amg_default_cells up
// (amg_default_planar_cells when planar), AIP-1 below it; AMG on the FFT path, whose low-frequency
// blocks then take AMG where timed solves find it faster than Jacobi (their bytes per step measured no
// higher than AIP's or Jacobi's; docs/fft-poisson.md). Records the choice and why in
// n.preconditioner_choice; other values are left as they are.
void resolve_preconditioner(NumericsConfig& n, long long cells, bool planar);

}  // namespace miniapp::cases
