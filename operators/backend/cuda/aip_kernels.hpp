#pragma once
#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/kernel_types.hpp"

// CUDA implementation of the AIP apply (operators/kernels/aip_kernels.hpp), asynchronous on `stream`
// (a cudaStream_t); stub.cpp stands in for it in a build without CUDA. s.slots null: no ρ.
namespace miniapp::cuda {

void aip_apply(void* stream, const AipFactorView& g, const double* r, double* z, const cg::ScalarsView& s);
void aip_apply_advancing(void* stream, const AipFactorView& g, const double* p, const double* q, double* x,
                         const double* r, double* r_new, double* z, const cg::ScalarsView& s);

}  // namespace miniapp::cuda
