#pragma once
#include "miniapp/case/case_config.hpp"

namespace miniapp::cases {

// From this many cells of the whole mesh up, numerics.preconditioner = "auto" takes AMG on the PCG
// path (docs/amg.md: its solves move fewer bytes than AIP-1's from a few 10⁴ cells on the CPU and run
// faster on one H100 from 10⁵ cells, the smallest size measured there).
inline constexpr long long amg_default_cells = 100'000;

// numerics.preconditioner = "auto", once the mesh is made and numerics.poisson is final (`cells`: of
// the whole mesh): AMG on the PCG path from amg_default_cells up, AIP-1 below it; AMG on the FFT path,
// whose low-frequency blocks then take AMG where timed solves find it faster than Jacobi (their
// bytes per step measured no higher than AIP's or Jacobi's; docs/fft-poisson.md). Records the choice
// and why in n.preconditioner_choice; other values are left as they are.
void resolve_preconditioner(NumericsConfig& n, long long cells);

}  // namespace miniapp::cases
