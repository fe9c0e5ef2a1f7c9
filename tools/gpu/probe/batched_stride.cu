// The FFT path's batched kernels as the solver launches them (solvers/fft/cuda/batched_kernels.cu,
// linked in: the column dot, the SpMV fused with its dot, the CG update fused with its two dots, and the
// direction update with Jacobi's z formed from r, as on every system that has no leading block) on a
// periodic 256 × 256 plane's 5-point stencil, per system stride S and active
// range [0, end): does a row stride that is not a multiple of 16 doubles (128 bytes) cost, once the
// range's last block of system lanes gives its idle lanes to rows? Nper = 190 had S = 192 and runs
// systems [0, 191); Nper = 192 had S = 194 and [0, 193), before the FFT path rounded S up to 208 on
// CUDA (mode_stride); the padded strides are such layouts. Prints the device's copy bandwidth, then µs a call per kernel (median of
// 30 after 5 warm-up calls, CUDA events). With an argument SIDE other than 256, a SIDE × SIDE plane and
// the strides and ranges the FFT path gives Nper = SIDE on CUDA (Taylor–Green SIDE³): the full range
// and two narrower ones.
// Build: nvcc -std=c++20 -O3 -arch=sm_90 -I. tools/gpu/probe/batched_stride.cu solvers/fft/cuda/batched_kernels.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "solvers/fft/cuda/batched_kernels.hpp"
#include "solvers/fft/periodic_fft.hpp"

using namespace miniapp;
using namespace miniapp::fft;

namespace {

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

template <class T>
T* device_copy(const std::vector<T>& host) {
  T* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(T));
  cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

// Values in [0.5, 1.5), never zero.
std::vector<double> values(std::size_t n, unsigned seed) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0.5 + static_cast<double>((i * 2654435761u + seed) % 1000) / 1000.0;
  return v;
}

struct Case {
  index_t stride, end;
};

}  // namespace

int main(int argc, char** argv) {
  const index_t side = argc > 1 ? std::atoi(argv[1]) : 256, rows = side * side;
  std::vector<Case> cases{{192, 191}, {192, 192}, {194, 193}, {194, 194}, {196, 193}, {200, 193}, {208, 193},
                          {256, 193}, {192, 78},  {194, 78},  {208, 78},  {192, 55},  {194, 55},  {208, 55}};
  if (side != 256) {
    const index_t stride = mode_stride(Backend::cuda, side);
    cases = {{stride, side + 1}, {stride, (side + 1) * 2 / 5}, {stride, (side + 1) / 4}};
  }
  index_t max_stride = 0;
  for (const Case& c : cases) max_stride = std::max(max_stride, c.stride);
  // The periodic plane's −L: 4 on the diagonal, −1 to the four neighbours.
  std::vector<index_t> row_ptr{0}, col;
  std::vector<double> val;
  for (index_t j = 0; j < side; ++j)
    for (index_t i = 0; i < side; ++i) {
      for (const index_t c : {j * side + i, j * side + (i + 1) % side, j * side + (i + side - 1) % side,
                              ((j + 1) % side) * side + i, ((j + side - 1) % side) * side + i}) {
        col.push_back(c);
        val.push_back(c == j * side + i ? 4.0 : -1.0);
      }
      row_ptr.push_back(static_cast<index_t>(col.size()));
    }
  const CsrView a{rows, rows, device_copy(row_ptr), device_copy(col), device_copy(val)};
  const double* diagonal = device_copy(std::vector<double>(rows, 4.0));
  const double* w = device_copy(std::vector<double>(rows, 1.0));
  const double* shifts = device_copy(values(max_stride, 7));
  const ShiftedPointers m{a, diagonal, w, shifts};
  const std::size_t n = static_cast<std::size_t>(rows) * max_stride;
  double *u = device_copy(values(n, 1)), *v = device_copy(values(n, 2)), *x = device_copy(values(n, 3)),
         *y = device_copy(values(n, 4)), *p = device_copy(values(n, 5)), *q = device_copy(values(n, 6)),
         *z = device_copy(values(n, 8));
  const double* alpha = device_copy(std::vector<double>(max_stride, 1e-9));  // keeps the values bounded
  const double* beta = device_copy(std::vector<double>(max_stride, 0.5));
  const std::size_t partials = static_cast<std::size_t>(row_tiles(Backend::cuda, rows).count) * max_stride;
  double *partials0 = device_copy(std::vector<double>(partials, 0.0)),
         *partials1 = device_copy(std::vector<double>(partials, 0.0));
  const double copy_us = median_us([&] { cudaMemcpyAsync(y, x, n * sizeof(double), cudaMemcpyDeviceToDevice); });
  std::printf("copy bandwidth %.0f GB/s (%zu MB read and written)\n", 2.0 * n * sizeof(double) / (copy_us * 1e3),
              n * sizeof(double) / 1000000);
  std::printf("stride end | dot spmv_dot cg_update direction (us a call)\n");
  for (const Case& c : cases) {
    const BatchedShape s{rows, c.stride, 0, c.end};
    const double dot = median_us([&] { cuda::batched_dot_partials(nullptr, s, rows, u, v, partials0); });
    const TileSpan all_tiles{0, row_tiles(Backend::cuda, rows).count};
    const double spmv = median_us([&] { cuda::batched_spmv_dot(nullptr, m, s, rows, x, y, partials0, all_tiles); });
    const double update = median_us([&] {
      cuda::batched_cg_update_jacobi(nullptr, m, s, 0, rows, CgUpdateVectors{alpha, p, q, x, u}, partials0,
                                     partials1);
    });
    const double direction =
        median_us([&] { cuda::batched_direction_jacobi(nullptr, m, s, 0, DirectionVectors{beta, z, u, p}); });
    std::printf("%d %d | %.2f %.2f %.2f %.2f\n", c.stride, c.end, dot, spmv, update, direction);
  }
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
}
