#pragma once
// Stream-ordered scratch memory and the read of one value back, for the CUDA kernels' host sides that
// need a few temporary arrays or a flag (sell_fill.cu, AMG's set-up kernels; nvcc only).
#include <cstddef>

#include "operators/backend/cuda/check.cuh"

namespace miniapp::cuda::detail {

// n values of device scratch allocated on a stream, freed on it when the object goes out of scope.
template <class T>
class StreamScratch {
 public:
  StreamScratch(cudaStream_t s, std::size_t n) : stream_(s) {
    MINIAPP_CUDA_CHECK(cudaMallocAsync(&data_, sizeof(T) * (n > 0 ? n : 1), s));
  }
  ~StreamScratch() { cudaFreeAsync(data_, stream_); }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
  T* get() const { return data_; }

 private:
  cudaStream_t stream_;
  T* data_ = nullptr;
};

// Copies one value from device memory and waits for it.
template <class T>
T read_one(cudaStream_t s, const T* value) {
  T host{};
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(&host, value, sizeof(T), cudaMemcpyDeviceToHost, s));
  MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
  return host;
}

}  // namespace miniapp::cuda::detail
