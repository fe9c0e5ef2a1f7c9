#pragma once
#include <cstddef>
#include <string>

// Device management for the CUDA backend, behind a header free of CUDA types so that host code
// compiles without nvcc. In a build without CUDA, built() is false, device_count() is 0 and the rest
// throw miniapp::Error("... built without CUDA").
namespace miniapp::cuda {

bool built();
int device_count();  // 0 when no device is visible (never throws)
std::string device_name(int device);
std::size_t free_memory(int device);
// Free and total bytes of `device`'s memory (cudaMemGetInfo), for the up-front memory check.
struct MemoryInfo {
  std::size_t free_bytes = 0, total_bytes = 0;
};
MemoryInfo memory_info(int device);

void* create_stream(int device);
void destroy_stream(void* stream) noexcept;
void synchronize(void* stream);

void* allocate(int device, std::size_t bytes);
void deallocate(void* ptr) noexcept;
void copy_from_host(void* stream, void* dst, const void* src, std::size_t bytes);
void copy_to_host(void* stream, void* dst, const void* src, std::size_t bytes);
void copy_device(void* stream, void* dst, const void* src, std::size_t bytes);

// Device time between two points of a stream's work, measured by a pair of CUDA events: what the
// kernel benchmark reports (launch gaps on the stream included, host-side overhead excluded).
class StreamTimer {
 public:
  explicit StreamTimer(void* stream);
  ~StreamTimer();
  StreamTimer(const StreamTimer&) = delete;
  StreamTimer& operator=(const StreamTimer&) = delete;
  void start();   // records the start event on the stream
  double stop();  // records the end event, waits for it; seconds since start()

 private:
  void* stream_;
  void* start_ = nullptr;
  void* end_ = nullptr;
};

}  // namespace miniapp::cuda
