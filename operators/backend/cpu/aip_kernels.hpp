#pragma once
#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/kernel_types.hpp"

// CPU (reference) implementation of the AIP apply (operators/kernels/aip_kernels.hpp). Called only
// through the front end. s.slots null: no ρ (plain apply).
namespace miniapp::cpu {

void aip_apply(const AipFactorView& g, const double* r, double* z, const cg::ScalarsView& s);

}  // namespace miniapp::cpu
