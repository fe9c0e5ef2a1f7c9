#pragma once
#include "operators/backend/cg_scalars.hpp"
#include "operators/kernels/aip_kernels.hpp"

// CUDA implementation of the AIP apply (operators/kernels/aip_kernels.hpp), asynchronous on `stream`
// (a cudaStream_t); stub.cpp stands in for it in a build without CUDA. s.slots null: no ρ;
// residual_test: γ = r·r summed in the same pass, and cg::finish_residual made before cg::finish_rho.
namespace miniapp::cuda {

void aip_apply(void* stream, const AipFactorView& g, const double* r, double* z, const cg::ScalarsView& s,
               bool residual_test);

}  // namespace miniapp::cuda
