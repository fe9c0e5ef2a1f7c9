// What a kernel boundary costs on this GPU, against a grid-wide barrier inside one cooperative kernel.
// Measured before deciding whether PCG's iterations on small meshes should run as one persistent kernel:
// per dependent step, (a) a CUDA graph of K launches, (b) one cooperative kernel with K grid.sync().
// Each step is an AXPY-like pass (y += a x, grid-stride) or the same with a sum reduced to one value.
// Build: target ubench_launch_gaps (-DMINIAPP_TOOLS=ON), or
//   nvcc -O3 -arch=sm_90 -std=c++17 -o launch_gaps tools/ubench/launch_gaps.cu
// Run:   ./launch_gaps   (prints µs per step, medians of 21 timed runs after 3 warm-ups)
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "block_sum.cuh"
#include "check.cuh"
#include "event_timing.cuh"

namespace cg = cooperative_groups;

constexpr int threads = 256;
constexpr int steps = 256;

__global__ void empty_kernel() {}

__global__ void axpy_kernel(int n, const double* x, double* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] += 1e-3 * x[i];
}

// y += 1e-3 x over the grid, and this block's sum of y·x (in thread 0), the pass every summing kernel
// below makes before it finishes its sum its own way.
__device__ double axpy_block_sum(int n, const double* x, double* y, double* shared) {
  double v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const double yi = y[i] + 1e-3 * x[i];
    y[i] = yi;
    v += yi * x[i];
  }
  return block_sum<threads>(v, shared);
}

// The last block's part (`last` as every thread of the block sees it): it adds the `count` partials
// from L2, writes the sum and resets the count for the next launch.
__device__ void last_block_sum(bool last, const double* partial, unsigned count, double* shared, double* sum,
                               unsigned* done) {
  if (!last) return;
  double s = 0;
  for (unsigned b = threadIdx.x; b < count; b += blockDim.x) s += __ldcg(partial + b);
  s = block_sum<threads>(s, shared);
  if (threadIdx.x == 0) {
    *sum = s;
    *done = 0;
  }
}

// The last block to finish sums the partials (one atomic per block), as the backend's CG kernels do:
// the count after a fence, or (AcqRel) as one acquire-release atomic instead of a fence and a plain
// atomic (the memory model then orders the partials before the count, and the last block's reads after).
template <bool AcqRel>
__global__ void axpy_sum_kernel(int n, const double* x, double* y, double* partial, unsigned* done, double* sum) {
  __shared__ double shared[threads / 32];
  __shared__ bool last;
  const double v = axpy_block_sum(n, x, y, shared);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = v;
    if constexpr (AcqRel) {
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> count(*done);
      last = count.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
    } else {
      __threadfence();
      last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
  }
  __syncthreads();
  last_block_sum(last, partial, gridDim.x, shared, sum, done);
}

// The same pass with other ways to finish the sum, to find what the last-block sum costs.
// Variant 0: no fence, no count (partials only: the sum is not formed); 1: fence and count, the last
// block does not sum; 2: two-level count (groups of 32 blocks, each group's last block sums the
// group's partials and counts at the top; the last of those sums the group sums).
template <int Variant>
__global__ void axpy_sum_variant(int n, const double* x, double* y, double* partial, unsigned* done, double* sum) {
  __shared__ double shared[threads / 32];
  __shared__ bool last;
  const double v = axpy_block_sum(n, x, y, shared);
  if (threadIdx.x == 0) partial[blockIdx.x] = v;
  if (Variant == 0) return;
  if (Variant == 1) {
    if (threadIdx.x == 0) {
      __threadfence();
      last = atomicAdd(done, 1u) == gridDim.x - 1;
      if (last) *done = 0;
    }
    return;
  }
  constexpr unsigned group = 32;
  const unsigned g = blockIdx.x / group, groups = (gridDim.x + group - 1) / group;
  const unsigned in_group = min(group, gridDim.x - g * group);
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(done + 1 + g, 1u) == in_group - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double s = threadIdx.x < in_group ? __ldcg(partial + g * group + threadIdx.x) : 0.0;
  s = block_sum<threads>(s, shared);
  if (threadIdx.x == 0) {
    partial[65536 + g] = s;
    done[1 + g] = 0;
    __threadfence();
    last = atomicAdd(done, 1u) == groups - 1;
  }
  __syncthreads();
  if (last) __threadfence();
  last_block_sum(last, partial + 65536, groups, shared, sum, done);
}

// mode 0: barriers only; 1: AXPY then barrier; 2: AXPY with a sum every block re-adds after the barrier.
__global__ void persistent_kernel(int mode, int n, const double* x, double* y, double* partial, double* sum) {
  __shared__ double shared[threads / 32];
  cg::grid_group grid = cg::this_grid();
  double carried = 0;
  for (int k = 0; k < steps; ++k) {
    double v = 0;
    if (mode >= 1)
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const double yi = y[i] + 1e-3 * x[i] + 1e-30 * carried;
        y[i] = yi;
        v += yi * x[i];
      }
    if (mode == 2) {
      v = block_sum<threads>(v, shared);
      if (threadIdx.x == 0) partial[(k % 2) * gridDim.x + blockIdx.x] = v;
    }
    grid.sync();
    if (mode == 2) {  // every block sums the partials in the same order: the same value everywhere
      double s = 0;
      for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) s += partial[(k % 2) * gridDim.x + b];
      s = block_sum<threads>(s, shared);
      if (threadIdx.x == 0) shared[0] = s;
      __syncthreads();
      carried = shared[0];
      __syncthreads();
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *sum = carried;
}

// The median time of one dependent step of `launch()`, which queues `steps` of them, in µs.
template <class Launch>
double median_us_per_step(cudaStream_t stream, Launch launch) {
  return 1000.0 * median_event_ms(stream, launch) / steps;
}

template <class Body>
cudaGraphExec_t record(cudaStream_t stream, Body body) {
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int k = 0; k < steps; ++k) body();
  CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(graph));
  return exec;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persistent_kernel, threads, 0));
  const int coop_blocks = per_sm * prop.multiProcessorCount;
  std::printf("device %s, %d SMs, %d cooperative blocks of %d threads (%d per SM)\n", prop.name,
              prop.multiProcessorCount, coop_blocks, threads, per_sm);
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (const int n : {262144, 384000, 3072000}) {
    double *x, *y, *partial, *sum;
    unsigned* done;
    CHECK(cudaMalloc(&x, n * sizeof(double)));
    CHECK(cudaMalloc(&y, n * sizeof(double)));
    CHECK(cudaMalloc(&partial, 2 * 65536 * sizeof(double)));
    CHECK(cudaMalloc(&sum, sizeof(double)));
    CHECK(cudaMalloc(&done, 64 * sizeof(unsigned)));
    CHECK(cudaMemset(done, 0, 64 * sizeof(unsigned)));
    std::vector<double> h(n);
    for (int i = 0; i < n; ++i) h[i] = 1.0 + (i % 97) * 1e-3;  // not zeros
    CHECK(cudaMemcpy(x, h.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, h.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    const int graph_blocks = std::min(1024, (n + threads - 1) / threads);
    cudaGraphExec_t empty = record(stream, [&] { empty_kernel<<<graph_blocks, threads, 0, stream>>>(); });
    cudaGraphExec_t axpy = record(stream, [&] { axpy_kernel<<<graph_blocks, threads, 0, stream>>>(n, x, y); });
    cudaGraphExec_t axpy_sum = record(stream, [&] {
      axpy_sum_kernel<false><<<graph_blocks, threads, 0, stream>>>(n, x, y, partial, done, sum);
    });
    cudaGraphExec_t partials_only = record(stream, [&] {
      axpy_sum_variant<0><<<graph_blocks, threads, 0, stream>>>(n, x, y, partial, done, sum);
    });
    cudaGraphExec_t count_only = record(stream, [&] {
      axpy_sum_variant<1><<<graph_blocks, threads, 0, stream>>>(n, x, y, partial, done, sum);
    });
    cudaGraphExec_t two_level = record(stream, [&] {
      axpy_sum_variant<2><<<graph_blocks, threads, 0, stream>>>(n, x, y, partial, done, sum);
    });
    cudaGraphExec_t acq_rel = record(stream, [&] {
      axpy_sum_kernel<true><<<graph_blocks, threads, 0, stream>>>(n, x, y, partial, done, sum);
    });
    const auto graph_us = [&](cudaGraphExec_t g) {
      return median_us_per_step(stream, [&] { CHECK(cudaGraphLaunch(g, stream)); });
    };
    const auto coop_us = [&](int mode) {
      return median_us_per_step(stream, [&] {
        int m = mode, nn = n;
        void* args[] = {&m, &nn, &x, &y, &partial, &sum};
        CHECK(cudaLaunchCooperativeKernel((void*)persistent_kernel, coop_blocks, threads, args, 0, stream));
      });
    };
    std::printf("n %8d | graph (%4d blocks): empty %6.2f  axpy %6.2f  axpy+sum %6.2f us/step | "
                "cooperative (%4d blocks): sync %6.2f  axpy+sync %6.2f  axpy+sum+sync %6.2f us/step | "
                "axpy bytes at 3 TB/s %5.2f us\n",
                n, graph_blocks, graph_us(empty), graph_us(axpy), graph_us(axpy_sum), coop_blocks, coop_us(0),
                coop_us(1), coop_us(2), 24.0 * n / 3e6);
    std::printf("           sum variants in a graph: partials only %6.2f  fence+count %6.2f  two-level count+sum "
                "%6.2f  acq_rel count+sum %6.2f us/step\n", graph_us(partials_only), graph_us(count_only),
                graph_us(two_level), graph_us(acq_rel));
    for (cudaGraphExec_t g : {empty, axpy, axpy_sum, partials_only, count_only, two_level, acq_rel})
      CHECK(cudaGraphExecDestroy(g));
    for (void* p : {(void*)x, (void*)y, (void*)partial, (void*)sum, (void*)done}) CHECK(cudaFree(p));
  }
  return 0;
}
