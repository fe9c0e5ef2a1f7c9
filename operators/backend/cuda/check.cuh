#pragma once
// Kernel launch checks and launch geometry shared by the CUDA backend's translation units (nvcc only);
// runtime calls are checked by runtime_check.hpp's MINIAPP_CUDA_CHECK.
#include <cstdint>
#include <string>

#include <cuda_runtime.h>

#include "core/error.hpp"
#include "core/types.hpp"
#include "operators/backend/cuda/runtime_check.hpp"

namespace miniapp::cuda::detail {

// Checks that the kernel just launched was accepted (bad configuration, no kernel image for this GPU,
// or a sticky error of an earlier asynchronous kernel). Errors inside the kernel surface at the next
// synchronising call.
inline void check_launch(const char* kernel, const char* file, int line) {
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    throw Error(std::string(file) + ":" + std::to_string(line) + ": CUDA kernel " + kernel +
                " failed to launch: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

inline cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

// Threads per block of every element-wise and row-wise kernel: 8 warps, enough blocks per SM to
// hide memory latency, and a multiple of every slice height the sELL format uses.
inline constexpr int block_size = 256;

// Blocks for one thread per item; n > 0 (a launch with zero blocks is an error, callers return
// early). At most 2^31 / 256 blocks, far below the 2^31 - 1 limit of gridDim.x.
inline unsigned blocks_for(index_t n) { return static_cast<unsigned>((static_cast<std::int64_t>(n) + block_size - 1) / block_size); }

// Global thread index in 64 bits: the last block of a 2^31-element vector overruns int32.
__device__ inline std::int64_t global_thread() {
  return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

}  // namespace miniapp::cuda::detail

// After every kernel launch: MINIAPP_CUDA_CHECK_LAUNCH("kernel_name").
#define MINIAPP_CUDA_CHECK_LAUNCH(kernel) ::miniapp::cuda::detail::check_launch(kernel, __FILE__, __LINE__)
