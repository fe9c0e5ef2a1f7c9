#pragma once
// Checks of CUDA runtime calls, for the CUDA backend's translation units, nvcc's and the host
// compiler's alike (check.cuh adds the kernel launch checks, nvcc only).
#include <string>

#include <cuda_runtime.h>

#include "core/error.hpp"

namespace miniapp::cuda::detail {

// Throws the Error of a failed runtime call: where (file:line), which call, and CUDA's reason.
[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  throw Error(std::string(file) + ":" + std::to_string(line) + ": CUDA call " + call + " failed: " +
              cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

}  // namespace miniapp::cuda::detail

// Every CUDA runtime call goes through this: a failure throws miniapp::Error naming the call.
#define MINIAPP_CUDA_CHECK(call)                                                              \
  do {                                                                                        \
    const cudaError_t miniapp_cuda_err_ = (call);                                             \
    if (miniapp_cuda_err_ != cudaSuccess)                                                     \
      ::miniapp::cuda::detail::throw_cuda_error(miniapp_cuda_err_, #call, __FILE__, __LINE__); \
  } while (0)
