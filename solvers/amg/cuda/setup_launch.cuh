#pragma once
// Launches of the AMG set-up's device kernels (aggregation.cu, level_kernels.cu; nvcc only).
#include <cstdint>

#include "operators/backend/cuda/check.cuh"

namespace miniapp::amg::cuda::detail {

// kernel over one thread per item (n > 0), named in a launch failure's message.
template <class... Params, class... Args>
void per_item(cudaStream_t s, const char* name, void (*kernel)(Params...), std::int64_t n, Args... args) {
  const auto blocks = static_cast<unsigned>((n + miniapp::cuda::detail::block_size - 1) / miniapp::cuda::detail::block_size);
  kernel<<<blocks, miniapp::cuda::detail::block_size, 0, s>>>(args...);
  miniapp::cuda::detail::check_launch(name, __FILE__, __LINE__);
}

}  // namespace miniapp::amg::cuda::detail
