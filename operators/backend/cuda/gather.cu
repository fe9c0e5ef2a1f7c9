// Indexed copies of the CUDA backend (pack / unpack of halo exchanges): one thread per entry. Halo
// lists are short (the interface of a subdomain), so a grid-stride loop brings nothing here.
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/check.cuh"

namespace miniapp::cuda {
namespace {

using detail::block_size;

__global__ void __launch_bounds__(block_size)
    gather_kernel(index_t n, const index_t* __restrict__ index, const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t i = detail::global_thread();
  if (i < n) y[i] = x[index[i]];
}

__global__ void __launch_bounds__(block_size)
    scatter_kernel(index_t n, const index_t* __restrict__ index, const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t i = detail::global_thread();
  if (i < n) y[index[i]] = x[i];
}

}  // namespace

// y[i] = x[index[i]], i < n.
void gather(void* stream, index_t n, const index_t* index, const double* x, double* y) {
  if (n == 0) return;
  gather_kernel<<<detail::blocks_for(n), block_size, 0, detail::as_stream(stream)>>>(n, index, x, y);
  MINIAPP_CUDA_CHECK_LAUNCH("gather_kernel");
}

// y[index[i]] = x[i], i < n; indices distinct.
void scatter(void* stream, index_t n, const index_t* index, const double* x, double* y) {
  if (n == 0) return;
  scatter_kernel<<<detail::blocks_for(n), block_size, 0, detail::as_stream(stream)>>>(n, index, x, y);
  MINIAPP_CUDA_CHECK_LAUNCH("scatter_kernel");
}

}  // namespace miniapp::cuda
