#pragma once
// Grid size of a kernel that ends in a reduction into a CG scalar block (cg_kernels.cu, aip_kernels.cu):
// grid-stride loops with at most cg::max_partials blocks, the block sums' room in the block (nvcc only).
#include <algorithm>
#include <cstdint>

#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/cuda/launch.cuh"

namespace miniapp::cuda::detail {

// Blocks of `Kernel` for `items` work items: one per thread while that is fewer than the blocks that
// fit on the GPU at once (the kernel's occupancy, queried once per kernel), at most cg::max_partials,
// at least one even for n = 0 so that the scalar step runs as on the CPU (an empty sum is 0).
template <auto Kernel>
unsigned scalar_grid(std::int64_t items) {
  static const int per_sm = [] {
    int blocks = 0;
    MINIAPP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Kernel, block_size, 0));
    return std::max(blocks, 1);
  }();
  return std::min(grid_stride_blocks(items, per_sm), static_cast<unsigned>(cg::max_partials));
}

}  // namespace miniapp::cuda::detail
