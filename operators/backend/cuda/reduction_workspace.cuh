#pragma once
// Scratch memory of the reductions (dot.cu, flow_kernels.cu), one set per stream so that executors
// on different streams never share it. Created on a stream's first reduction, freed by destroy_stream.
#include "operators/backend/cuda/check.cuh"

namespace miniapp::cuda::detail {

// Largest number of blocks of a reduction's first pass, and of pairs reduced together.
inline constexpr int max_reduction_blocks = 1024;
inline constexpr int max_reduction_pairs = 4;

struct ReductionWorkspace {
  double* d_partial = nullptr;   // max_reduction_pairs * max_reduction_blocks block sums
  double* d_result = nullptr;    // max_reduction_pairs final sums
  double* h_result = nullptr;    // pinned and mapped host memory, read by the host after a synchronize
  double* h_result_device = nullptr;  // h_result as kernels address it: a kernel writes the result
                                      // there directly, with no copy to queue after it
  unsigned* d_blocks_done = nullptr;  // blocks of a one-kernel reduction that have written their
                                      // partial; 0 between reductions (the last block resets it)
};

// The workspace of `stream` (allocated on the current device on first use). One host thread per
// stream: the host reads h_result after its own synchronize.
ReductionWorkspace& reduction_workspace(void* stream);
// Frees the workspace of `stream`, if any; errors are ignored (called from destructors).
void release_reduction_workspace(void* stream) noexcept;

}  // namespace miniapp::cuda::detail
