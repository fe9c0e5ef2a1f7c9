#pragma once
// Scratch memory and launches of the AMG set-up's device kernels (aggregation.cu, level_kernels.cu;
// nvcc only).
#include <cstddef>

#include "operators/backend/cuda/check.cuh"

namespace miniapp::amg::cuda::detail {

// Device scratch of one set-up step, freed on its stream when it goes out of scope.
template <class T>
class Scratch {
 public:
  Scratch(cudaStream_t s, std::size_t n) : stream_(s) {
    MINIAPP_CUDA_CHECK(cudaMallocAsync(&data_, sizeof(T) * (n > 0 ? n : 1), s));
  }
  ~Scratch() { cudaFreeAsync(data_, stream_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* get() const { return data_; }

 private:
  cudaStream_t stream_;
  T* data_ = nullptr;
};

// kernel over one thread per item (n > 0), named in a launch failure's message.
template <class... Params, class... Args>
void per_item(cudaStream_t s, const char* name, void (*kernel)(Params...), std::int64_t n, Args... args) {
  const auto blocks = static_cast<unsigned>((n + miniapp::cuda::detail::block_size - 1) / miniapp::cuda::detail::block_size);
  kernel<<<blocks, miniapp::cuda::detail::block_size, 0, s>>>(args...);
  miniapp::cuda::detail::check_launch(name, __FILE__, __LINE__);
}

// Copies one value from device memory and waits for it.
template <class T>
T read_one(cudaStream_t s, const T* value) {
  T host{};
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(&host, value, sizeof(T), cudaMemcpyDeviceToHost, s));
  MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
  return host;
}

}  // namespace miniapp::amg::cuda::detail
