// The AXPY family and pointwise kernels of the CUDA backend: grid-stride loops over element pairs
// (2j, 2j+1) with 16-byte (double2) loads and stores, the odd last element done alone by thread 0,
// at most 8 resident blocks of 256 threads per SM (a full SM: one wave, no tail of partly idle
// blocks). Arrays not 16-byte aligned (views starting at an odd element) take the same loop with
// 8-byte accesses. Traffic per element: axpby 24 bytes (16 when b = 0), waxpby 24,
// pointwise_multiply 24, accumulate_product 32, fill 8, copy 16.
//
// A coefficient that is exactly 0 means its input is not read at all, chosen on the host by template
// parameter: y = a x + 0 y must overwrite uninitialised or NaN y (0 · NaN = NaN), as the CPU
// reference does. A coefficient in device memory (Coefficient::ref) is known only when the kernel
// runs: both inputs are read, and a zero coefficient discards its term by a select instead.
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/launch.cuh"

namespace miniapp::cuda {
namespace {

using detail::block_size;

constexpr int elementwise_blocks_per_sm = 8;

// w = a x + b y, reading only the inputs enabled.
template <bool ReadX, bool ReadY>
struct Waxpby {
  static constexpr bool reads_x = ReadX, reads_y = ReadY;
  double a, b;
  __device__ double operator()(double x, double y) const {
    double sum = 0.0;
    if constexpr (ReadX) sum = a * x;
    if constexpr (ReadY) sum += b * y;
    return sum;
  }
};

// w = a x + b y with a, b taken from device memory where given (once per thread, resolved()).
struct WaxpbyInMemory {
  static constexpr bool reads_x = true, reads_y = true;
  Coefficient a, b;
  __device__ WaxpbyInMemory resolved() const {
    return {a.ref ? Coefficient(*a.ref) : a, b.ref ? Coefficient(*b.ref) : b};
  }
  __device__ double operator()(double x, double y) const {
    double sum = a.value != 0.0 ? a.value * x : 0.0;
    if (b.value != 0.0) sum += b.value * y;
    return sum;
  }
};

// f with its coefficients read from device memory, for functors that have any.
template <class F>
__device__ F resolved(const F& f) {
  if constexpr (requires { f.resolved(); }) return f.resolved();
  else return f;
}

struct Multiply {
  static constexpr bool reads_x = true, reads_y = true;
  __device__ double operator()(double x, double y) const { return x * y; }
};

struct Fill {
  static constexpr bool reads_x = false, reads_y = false;
  double value;
  __device__ double operator()(double, double) const { return value; }
};

// w_i = f(x_i, y_i) for i < n; x (y) is not read unless F::reads_x (reads_y). w may alias x or y:
// each element is read before it is written, by the same thread, hence no __restrict__.
template <class F, bool Vec>
__global__ void __launch_bounds__(block_size) map_kernel(index_t n, F queued, const double* x, const double* y, double* w) {
  const F f = resolved(queued);
  const std::int64_t pairs = n / 2, stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t j = detail::global_thread(); j < pairs; j += stride) {
    double2 xv{0.0, 0.0}, yv{0.0, 0.0};
    if constexpr (F::reads_x) xv = detail::load_pair<Vec>(x, j);
    if constexpr (F::reads_y) yv = detail::load_pair<Vec>(y, j);
    detail::store_pair<Vec>(w, j, make_double2(f(xv.x, yv.x), f(xv.y, yv.y)));
  }
  if (detail::global_thread() == 0 && n % 2 != 0) {
    const double xi = F::reads_x ? x[n - 1] : 0.0, yi = F::reads_y ? y[n - 1] : 0.0;
    w[n - 1] = f(xi, yi);
  }
}

// z_i += a x_i y_i, one element per thread and stride (three inputs: not a map_kernel functor).
__global__ void __launch_bounds__(block_size)
    accumulate_product_kernel(index_t n, double a, const double* x, const double* y, double* z) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = detail::global_thread(); i < n; i += stride) z[i] += a * (x[i] * y[i]);
}

template <class F>
void launch_map(void* stream, index_t n, F f, const double* x, const double* y, double* w) {
  if (n == 0) return;
  const bool aligned = (!F::reads_x || detail::aligned_16(x)) && (!F::reads_y || detail::aligned_16(y)) &&
                       detail::aligned_16(w);
  const unsigned blocks = detail::grid_stride_blocks(n / 2, elementwise_blocks_per_sm);
  const cudaStream_t s = detail::as_stream(stream);
  if (aligned) map_kernel<F, true><<<blocks, block_size, 0, s>>>(n, f, x, y, w);
  else map_kernel<F, false><<<blocks, block_size, 0, s>>>(n, f, x, y, w);
  MINIAPP_CUDA_CHECK_LAUNCH("map_kernel");
}

}  // namespace

// w = a x + b y over n entries; an input whose coefficient is a plain 0 is not read (a = b = 0 fills
// 0); coefficients in device memory are read by the kernel.
void waxpby(void* stream, index_t n, Coefficient a, const double* x, Coefficient b, const double* y, double* w) {
  if (a.ref || b.ref) launch_map(stream, n, WaxpbyInMemory{a, b}, x, y, w);
  else if (a.value != 0.0 && b.value != 0.0) launch_map(stream, n, Waxpby<true, true>{a.value, b.value}, x, y, w);
  else if (a.value != 0.0) launch_map(stream, n, Waxpby<true, false>{a.value, b.value}, x, y, w);
  else if (b.value != 0.0) launch_map(stream, n, Waxpby<false, true>{a.value, b.value}, x, y, w);
  else fill(stream, n, 0.0, w);
}

// y = a x + b y: waxpby writing in place.
void axpby(void* stream, index_t n, Coefficient a, const double* x, Coefficient b, double* y) {
  waxpby(stream, n, a, x, b, y, y);
}

// z = x ∘ y elementwise; z may alias x or y.
void pointwise_multiply(void* stream, index_t n, const double* x, const double* y, double* z) {
  launch_map(stream, n, Multiply{}, x, y, z);
}

// z = a x ∘ y + z.
void accumulate_product(void* stream, index_t n, double a, const double* x, const double* y, double* z) {
  if (n == 0) return;
  accumulate_product_kernel<<<detail::grid_stride_blocks(n, elementwise_blocks_per_sm), block_size, 0,
                              detail::as_stream(stream)>>>(n, a, x, y, z);
  MINIAPP_CUDA_CHECK_LAUNCH("accumulate_product_kernel");
}

// y = value.
void fill(void* stream, index_t n, double value, double* y) { launch_map(stream, n, Fill{value}, nullptr, nullptr, y); }

// y = x: a stream-ordered device-to-device cudaMemcpyAsync, already at full bandwidth.
void copy(void* stream, index_t n, const double* x, double* y) {
  if (n == 0 || x == y) return;
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(y, x, sizeof(double) * static_cast<std::size_t>(n), cudaMemcpyDeviceToDevice,
                                     detail::as_stream(stream)));
}

}  // namespace miniapp::cuda
