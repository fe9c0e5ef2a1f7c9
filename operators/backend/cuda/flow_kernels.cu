// Pointwise flow kernels of the CUDA backend. The eddy viscosity evaluates the same per-cell code as
// the CPU (les_models.hpp), one cell per thread: 88 bytes and 24 to 130 flops per cell, memory-bound
// for every model but Sigma. min_ratio and max_abs are two-pass reductions like dot.cu (block
// partials in the stream's reduction workspace, then one block), with the NaN-propagating
// operators of the CPU so that both backends return the same value bit for bit.
#include <algorithm>
#include <limits>

#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/reduction_workspace.cuh"
#include "operators/backend/les_models.hpp"
#include "operators/backend/wall_shear.hpp"

namespace miniapp::cuda {
namespace {

using detail::block_size;
using detail::max_reduction_blocks;

template <LesModel M>
__global__ void __launch_bounds__(block_size)
    eddy_viscosity_kernel(index_t n, double constant, les::GradientPointers g, const double* filter_width,
                          double* nu_t) {
  const std::int64_t i = detail::global_thread();
  if (i < n) nu_t[i] = les::eddy_viscosity<M>(constant, g.at(i), filter_width[i]);
}

__global__ void abs_value_kernel(index_t n, const double* x, double* y) {
  const std::int64_t i = detail::global_thread();
  if (i < n) y[i] = fabs(x[i]);
}

__global__ void wall_shear_kernel(index_t n, wall::FacePointers faces, double scale, double nu, double* tau,
                                  double* yplus) {
  const std::int64_t i = detail::global_thread();
  if (i >= n) return;
  const wall::Shear s = wall::shear_at(faces, i, scale, nu);
  tau[i] = s.tau;
  yplus[i] = s.yplus;
}

struct MinOp {
  static constexpr double identity = std::numeric_limits<double>::infinity();
  __device__ static double combine(double a, double b) { return les::nan_min(a, b); }
};
struct MaxOp {
  static constexpr double identity = 0.0;
  __device__ static double combine(double a, double b) { return les::nan_max(a, b); }
};

// Reduction of v over the block (blockDim.x == block_size) with Op, valid in thread 0.
template <class Op>
__device__ double block_reduce(double v) {
  __shared__ double warp_results[block_size / 32];
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = Op::combine(v, __shfl_down_sync(0xffffffffu, v, offset));
  if (threadIdx.x % 32 == 0) warp_results[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < block_size / 32 ? warp_results[threadIdx.x] : Op::identity;
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) v = Op::combine(v, __shfl_down_sync(0xffffffffu, v, offset));
  }
  return v;
}

// The value min_ratio reduces at entry i: x/y where y > 0, else the identity (skipped).
struct RatioInput {
  const double* x;
  const double* y;
  __device__ double operator()(std::int64_t i) const {
    const double yi = __ldg(y + i);
    return yi > 0.0 ? __ldg(x + i) / yi : MinOp::identity;
  }
};
struct AbsInput {
  const double* x;
  __device__ double operator()(std::int64_t i) const { return fabs(__ldg(x + i)); }
};

// Pass 1: partial[block] = Op over the block's grid-stride entries of input.
template <class Op, class Input>
__global__ void __launch_bounds__(block_size)
    reduce_partial_kernel(index_t n, Input input, double* __restrict__ partial) {
  double v = Op::identity;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = detail::global_thread(); i < n; i += stride) v = Op::combine(v, input(i));
  v = block_reduce<Op>(v);
  if (threadIdx.x == 0) partial[blockIdx.x] = v;
}

// Pass 2, one block: result[0] = Op over the `blocks` partials.
template <class Op>
__global__ void __launch_bounds__(block_size) reduce_final_kernel(int blocks, const double* __restrict__ partial,
                                                                  double* __restrict__ result) {
  double v = Op::identity;
  for (int i = threadIdx.x; i < blocks; i += blockDim.x) v = Op::combine(v, partial[i]);
  v = block_reduce<Op>(v);
  if (threadIdx.x == 0) result[0] = v;
}

// Both passes into `result` in device memory, asynchronous (the stream orders the workspace's uses). n > 0.
template <class Op, class Input>
void reduce_async(void* stream, index_t n, Input input, double* result) {
  const cudaStream_t s = detail::as_stream(stream);
  const detail::ReductionWorkspace& w = detail::reduction_workspace(stream);
  const unsigned blocks = std::min(detail::blocks_for(n), static_cast<unsigned>(max_reduction_blocks));
  reduce_partial_kernel<Op><<<blocks, block_size, 0, s>>>(n, input, w.d_partial);
  MINIAPP_CUDA_CHECK_LAUNCH("reduce_partial_kernel");
  reduce_final_kernel<Op><<<1, block_size, 0, s>>>(static_cast<int>(blocks), w.d_partial, result);
  MINIAPP_CUDA_CHECK_LAUNCH("reduce_final_kernel");
}

// Both passes, then the result to the host after a stream synchronize. n > 0.
template <class Op, class Input>
double reduce(void* stream, index_t n, Input input) {
  const cudaStream_t s = detail::as_stream(stream);
  const detail::ReductionWorkspace& w = detail::reduction_workspace(stream);
  reduce_async<Op>(stream, n, input, w.d_result);
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(w.h_result, w.d_result, sizeof(double), cudaMemcpyDeviceToHost, s));
  MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
  return w.h_result[0];
}

}  // namespace

// ν_t per cell for `model` (one kernel instantiation per model); gradient holds 9 device pointers.
void eddy_viscosity(void* stream, index_t n, LesModel model, double constant, const double* const* gradient,
                    const double* filter_width, double* nu_t) {
  if (n == 0) return;
  les::GradientPointers g;
  for (int k = 0; k < 9; ++k) g.component[k] = gradient[k];
  les::with_model(model, [&](auto m) {
    eddy_viscosity_kernel<decltype(m)::value>
        <<<detail::blocks_for(n), block_size, 0, detail::as_stream(stream)>>>(n, constant, g, filter_width, nu_t);
    MINIAPP_CUDA_CHECK_LAUNCH("eddy_viscosity_kernel");
  });
}

// min x_i / y_i over y_i > 0; +infinity when there is none. Synchronous.
double min_ratio(void* stream, index_t n, const double* x, const double* y) {
  if (n == 0) return MinOp::identity;
  return reduce<MinOp>(stream, n, RatioInput{x, y});
}

// result[0] = min x_i / y_i over y_i > 0 in device memory, asynchronous; +infinity for n = 0.
void min_ratio_async(void* stream, index_t n, const double* x, const double* y, double* result) {
  if (n == 0) {
    fill(stream, 1, MinOp::identity, result);
    return;
  }
  reduce_async<MinOp>(stream, n, RatioInput{x, y}, result);
}

// max |x_i|; 0 for n = 0. Synchronous.
double max_abs(void* stream, index_t n, const double* x) {
  if (n == 0) return MaxOp::identity;
  return reduce<MaxOp>(stream, n, AbsInput{x});
}

// result[0] = max |x_i| in device memory, asynchronous; 0 for n = 0.
void max_abs_async(void* stream, index_t n, const double* x, double* result) {
  if (n == 0) {
    fill(stream, 1, MaxOp::identity, result);
    return;
  }
  reduce_async<MaxOp>(stream, n, AbsInput{x}, result);
}

// y = |x|; y may alias x.
void abs_value(void* stream, index_t n, const double* x, double* y) {
  if (n == 0) return;
  abs_value_kernel<<<detail::blocks_for(n), block_size, 0, detail::as_stream(stream)>>>(n, x, y);
  MINIAPP_CUDA_CHECK_LAUNCH("abs_value_kernel");
}

// τ and y⁺ per wall face (wall_shear.hpp).
void wall_shear(void* stream, index_t n, const wall::FacePointers& faces, double scale, double nu, double* tau,
                double* yplus) {
  if (n == 0) return;
  wall_shear_kernel<<<detail::blocks_for(n), block_size, 0, detail::as_stream(stream)>>>(n, faces, scale, nu, tau,
                                                                                          yplus);
  MINIAPP_CUDA_CHECK_LAUNCH("wall_shear_kernel");
}

}  // namespace miniapp::cuda
