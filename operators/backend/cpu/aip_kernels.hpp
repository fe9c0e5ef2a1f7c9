#pragma once
#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/kernel_types.hpp"
#include "operators/backend/spmv_epilogue.hpp"

// CPU (reference) implementation of the AIP apply (operators/kernels/aip_kernels.hpp). Called only
// through the front end. s.slots null: no ρ (plain apply).
namespace miniapp::cpu {

void aip_apply(const AipFactorView& g, const double* r, double* z, const cg::ScalarsView& s);
// y[i] = static_cast<float>(x[i]), i < n: a double matrix's values narrowed for float storage.
void narrow_to_float(index_t n, const double* x, float* y);
// x[i] = static_cast<float>(x[i]) in place, kept as a double.
void round_to_float(index_t n, double* x);
// One pass of A x over a float-valued matrix, each row's product handed to the epilogue.
void spmv_fused(const SellFloatView& a, const double* x, const AxpbyEpilogue& e);
void spmv_fused(const SellFloatView& a, const double* x, const JacobiEpilogue& e);

}  // namespace miniapp::cpu
