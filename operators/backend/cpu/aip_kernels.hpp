#pragma once
#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/kernel_types.hpp"

// CPU (reference) implementation of the AIP apply (operators/kernels/aip_kernels.hpp). Called only
// through the front end. s.slots null: no ρ (plain apply).
namespace miniapp::cpu {

void aip_apply(const AipFactorView& g, const double* r, double* z, const cg::ScalarsView& s);
// y[i] = static_cast<float>(x[i]), i < n: a double matrix's values narrowed for float storage.
void narrow_to_float(index_t n, const double* x, float* y);

}  // namespace miniapp::cpu
