#pragma once
#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/kernel_types.hpp"

// CUDA implementation of the AIP apply (operators/kernels/aip_kernels.hpp), asynchronous on `stream`
// (a cudaStream_t); stub.cpp stands in for it in a build without CUDA. s.slots null: no ρ.
namespace miniapp::cuda {

void aip_apply(void* stream, const AipFactorView& g, const double* r, double* z, const cg::ScalarsView& s);
// y[i] = x[i] rounded to the nearest float, i < n: a double matrix's values narrowed for float storage
// on the device (as static_cast<float> on the host).
void narrow_to_float(void* stream, index_t n, const double* x, float* y);
// x[i] rounded to the nearest float and kept as a double, in place.
void round_to_float(void* stream, index_t n, double* x);
void aip_apply_advancing(void* stream, const AipFactorView& g, const double* p, const double* q, double* x,
                         const double* r, double* r_new, double* z, const cg::ScalarsView& s);

}  // namespace miniapp::cuda
