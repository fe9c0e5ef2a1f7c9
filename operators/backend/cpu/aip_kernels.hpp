#pragma once
#include "operators/backend/cg_scalars.hpp"
#include "operators/kernels/aip_kernels.hpp"

// CPU (reference) implementation of the AIP apply (operators/kernels/aip_kernels.hpp). Called only
// through the front end. s.slots null: no ρ (plain apply); residual_test: γ = r·r summed in the same
// pass, and cg::finish_residual made before cg::finish_rho (skipped once the test stops the solve).
namespace miniapp::cpu {

void aip_apply(const AipFactorView& g, const double* r, double* z, const cg::ScalarsView& s, bool residual_test);

}  // namespace miniapp::cpu
