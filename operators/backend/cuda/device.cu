// Device management of the CUDA backend: device queries, non-blocking streams, cudaMalloc'd memory
// and stream-ordered copies. Every runtime call is checked (MINIAPP_CUDA_CHECK); the one exception
// is device_count, which must answer 0 on a machine without driver or device so that "auto" and the
// GPU tests can fall back instead of failing.
#include "operators/backend/cuda/device.hpp"

#include <array>
#include <atomic>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/launch.cuh"
#include "operators/backend/cuda/reduction_workspace.cuh"
#include "operators/backend/cuda/staged_copy.hpp"

namespace miniapp::cuda {

bool built() { return true; }

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device is an answer here, not an error: clear it
    return 0;
  }
  return count;
}

std::string device_name(int device) {
  cudaDeviceProp prop{};
  MINIAPP_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

std::size_t free_memory(int device) { return memory_info(device).free_bytes; }

MemoryInfo memory_info(int device) {
  MINIAPP_CUDA_CHECK(cudaSetDevice(device));
  MemoryInfo info;
  MINIAPP_CUDA_CHECK(cudaMemGetInfo(&info.free_bytes, &info.total_bytes));
  return info;
}

namespace detail {

// Cached per device: the attribute query costs a driver call, launches need it every time.
int sm_count() {
  constexpr int max_devices = 64;
  static std::array<std::atomic<int>, max_devices> cached{};
  int device = 0;
  MINIAPP_CUDA_CHECK(cudaGetDevice(&device));
  int count = device < max_devices ? cached[device].load(std::memory_order_relaxed) : 0;
  if (count > 0) return count;
  MINIAPP_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  if (device < max_devices) cached[device].store(count, std::memory_order_relaxed);
  return count;
}

}  // namespace detail

// Non-blocking: the stream does not synchronise with the legacy default stream, so work that a
// library might put there cannot serialise the time loop. Makes `device` current for this thread:
// the kernels launch on the current device, which must be the stream's.
void* create_stream(int device) {
  MINIAPP_CUDA_CHECK(cudaSetDevice(device));
  cudaStream_t stream = nullptr;
  MINIAPP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return stream;
}

// Waits for the stream's work before destroying it so that its reduction workspace is idle.
// Errors cannot be reported from here (called from destructors) and are cleared.
void destroy_stream(void* stream) noexcept {
  cudaStreamSynchronize(detail::as_stream(stream));
  detail::release_reduction_workspace(stream);
  cudaStreamDestroy(detail::as_stream(stream));
  cudaGetLastError();
}

void synchronize(void* stream) { MINIAPP_CUDA_CHECK(cudaStreamSynchronize(detail::as_stream(stream))); }

void* allocate(int device, std::size_t bytes) {
  MINIAPP_CUDA_CHECK(cudaSetDevice(device));
  void* ptr = nullptr;
  const cudaError_t err = cudaMalloc(&ptr, bytes);
  if (err == cudaSuccess) return ptr;
  cudaGetLastError();  // out of memory is not sticky: clear it so the next call does not see it
  std::size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  throw Error("cudaMalloc of " + std::to_string(bytes) + " bytes on CUDA device " + std::to_string(device) +
              " failed: " + cudaGetErrorString(err) + " (" + std::to_string(free_bytes) + " of " +
              std::to_string(total_bytes) + " bytes free)");
}

void deallocate(void* ptr) noexcept {
  cudaFree(ptr);  // implicitly synchronises the device: pending kernels on ptr finish first
  cudaGetLastError();
}

namespace {

// Page-locked host memory goes to the copy engines as it is; pageable memory is staged.
bool is_pinned(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

}  // namespace

// Asynchronous on the stream. A pageable `src` is staged before this returns (a large one through
// all host threads, staged_copy.hpp); a pinned one must stay valid until the stream has reached the copy.
void copy_from_host(void* stream, void* dst, const void* src, std::size_t bytes) {
  if (bytes >= detail::staged_copy_min_bytes && !is_pinned(src))
    return detail::staged_copy_to_device(stream, dst, src, bytes);
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, detail::as_stream(stream)));
}

// Synchronous for the caller: `dst` holds the data when this returns.
void copy_to_host(void* stream, void* dst, const void* src, std::size_t bytes) {
  if (bytes >= detail::staged_copy_min_bytes && !is_pinned(dst))
    return detail::staged_copy_to_host(stream, dst, src, bytes);
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, detail::as_stream(stream)));
  MINIAPP_CUDA_CHECK(cudaStreamSynchronize(detail::as_stream(stream)));
}

void copy_device(void* stream, void* dst, const void* src, std::size_t bytes) {
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, detail::as_stream(stream)));
}

StreamMarks::StreamMarks(void* stream, int count) : stream_(stream) {
  for (int i = 0; i < count; ++i) {
    cudaEvent_t event = nullptr;
    MINIAPP_CUDA_CHECK(cudaEventCreate(&event));
    events_.push_back(event);
  }
}

StreamMarks::~StreamMarks() {
  for (void* event : events_) cudaEventDestroy(static_cast<cudaEvent_t>(event));
  cudaGetLastError();
}

void StreamMarks::record(int i) {
  MINIAPP_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(events_.at(i)), detail::as_stream(stream_)));
}

double StreamMarks::seconds(int from, int to) const {
  const auto end = static_cast<cudaEvent_t>(events_.at(to));
  MINIAPP_CUDA_CHECK(cudaEventSynchronize(end));
  float ms = 0;
  MINIAPP_CUDA_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(events_.at(from)), end));
  return 1e-3 * ms;
}

}  // namespace miniapp::cuda
