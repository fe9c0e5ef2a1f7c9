// The FFT path's column-sum pattern (solvers/fft/cuda/batched_kernels.cu, tiled_kernel with DotRow)
// against the system stride: `width` active systems in rows of `stride` doubles, 32 system lanes by 8
// row lanes a block, 512 row tiles; then the batched SpMV's 5-point gathers fused with the dot. Does a
// 128-byte aligned stride (padding) speed them up, or only a width that fills whole warps? Prints µs a
// call (median of 30, CUDA events) and GB/s of the bytes streamed.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

// Column sums over 512 row tiles as the FFT path forms them: 32 system lanes by 8 row lanes a block,
// op(c, i) the term of row c at entry i = c · stride + system, the block's row lanes added in a tree.
template <class RowOp>
__global__ void __launch_bounds__(256) tiled_sums(int rows, int stride, int width, int rows_per_tile, RowOp op,
                                                  double* partials) {
  __shared__ double lanes[256];
  const unsigned t = threadIdx.y * 32 + threadIdx.x;
  const int sys = blockIdx.x * 32 + threadIdx.x;
  const int first = blockIdx.y * rows_per_tile, last = min(first + rows_per_tile, rows);
  double acc = 0;
  if (sys < width)
    for (int c = first + threadIdx.y; c < last; c += 8) acc += op(c, static_cast<long>(c) * stride + sys, stride, sys);
  lanes[t] = acc;
  __syncthreads();
  for (unsigned half = 4; half > 0; half /= 2) {
    if (threadIdx.y < half) lanes[t] += lanes[t + half * 32];
    __syncthreads();
  }
  if (threadIdx.y == 0 && sys < width) partials[static_cast<long>(blockIdx.y) * stride + sys] = lanes[t];
}

// The column dot u · v (DotRow).
struct Dot {
  const double *u, *v;
  __device__ double operator()(int, long i, int, int) const { return u[i] * v[i]; }
};

// The batched SpMV's pattern fused with its dot (SpmvDotRow): y[c, s] = 4 x[c, s] − Σ x[nb, s] over
// the 5-point stencil of a periodic side × side plane, and the term x · y.
struct StencilDot {
  int side;
  const double* x;
  double* y;
  __device__ double operator()(int c, long at, int stride, int sys) const {
    const int i = c % side, j = c / side;
    const int nb[4] = {j * side + (i + 1) % side, j * side + (i + side - 1) % side, ((j + 1) % side) * side + i,
                       ((j + side - 1) % side) * side + i};
    double r = 4 * x[at];
    for (int k = 0; k < 4; ++k) r -= x[static_cast<long>(nb[k]) * stride + sys];
    y[at] = r;
    return x[at] * r;
  }
};

// Median µs of 30 calls of `launch` after 5 warm-up calls, timed by CUDA events.
template <class Launch>
double median_us(Launch launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> times;
  for (int k = 0; k < 35; ++k) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    if (k >= 5) times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return 1e3 * times[times.size() / 2];
}

int main() {
  const int rows = 65536, tiles = 512, rows_per_tile = rows / tiles;
  struct Shape { int stride, width; };
  const Shape shapes[] = {{194, 194}, {192, 192}, {208, 194}, {224, 194}, {196, 194}, {200, 194}, {256, 194},
                          {66, 66}, {64, 64}, {80, 66}, {96, 66}};
  double *u, *v, *p;
  const size_t n = static_cast<size_t>(rows) * 256;
  cudaMalloc(&u, n * 8);
  cudaMalloc(&v, n * 8);
  cudaMalloc(&p, static_cast<size_t>(tiles) * 256 * 8);
  std::vector<double> host(n, 1.0);
  cudaMemcpy(u, host.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(v, host.data(), n * 8, cudaMemcpyHostToDevice);
  const auto gb_per_s = [&](const Shape& s, double us) { return 2.0 * 8 * rows * s.width / (us * 1e3); };
  std::printf("stride width us GB/s\n");
  for (const Shape& s : shapes) {
    const dim3 grid((s.width + 31) / 32, tiles), block(32, 8);
    const double us =
        median_us([&] { tiled_sums<<<grid, block>>>(rows, s.stride, s.width, rows_per_tile, Dot{u, v}, p); });
    std::printf("%d %d %.2f %.0f\n", s.stride, s.width, us, gb_per_s(s, us));
  }
  std::printf("stencil: stride width us GB/s (x read once, y written)\n");
  for (const Shape& s : shapes) {
    const dim3 grid((s.width + 31) / 32, tiles), block(32, 8);
    const double us = median_us(
        [&] { tiled_sums<<<grid, block>>>(rows, s.stride, s.width, rows_per_tile, StencilDot{256, u, v}, p); });
    std::printf("%d %d %.2f %.0f\n", s.stride, s.width, us, gb_per_s(s, us));
  }
}
