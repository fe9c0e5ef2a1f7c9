#include "operators/backend/cuda/staged_copy.hpp"

#include <algorithm>
#include <array>
#include <mutex>

#include "core/parallel_copy.hpp"
#include "operators/backend/cuda/runtime_check.hpp"

namespace miniapp::cuda::detail {
namespace {

constexpr std::size_t chunk_bytes = std::size_t{16} << 20;
constexpr int max_devices = 64;

// Two pinned chunks and, per chunk, the event after the last copy that reads or writes it. Per
// device (an event is recorded on streams of the device it was made on); made on first use and kept
// for the process (freeing pinned memory at exit could follow the CUDA context's teardown).
struct Staging {
  std::array<void*, 2> buffer{};
  std::array<cudaEvent_t, 2> done{};
};

std::mutex staging_mutex;  // one staged copy at a time: they share the buffers

// The current device's staging, or nullptr where it cannot be had (no pinned memory to spare, or a
// device past the first 64): the driver's own copy then serves.
Staging* staging() {
  static std::array<Staging*, max_devices> per_device{};
  static std::array<bool, max_devices> unavailable{};
  int device = 0;
  MINIAPP_CUDA_CHECK(cudaGetDevice(&device));
  if (device >= max_devices || unavailable[device]) return nullptr;
  if (!per_device[device]) {
    auto* st = new Staging();
    for (int b = 0; b < 2; ++b) {
      if (cudaHostAlloc(&st->buffer[b], chunk_bytes, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();  // not sticky: the driver's copy still works
        if (b == 1) cudaFreeHost(st->buffer[0]);
        delete st;
        unavailable[device] = true;
        return nullptr;
      }
    }
    for (int b = 0; b < 2; ++b) MINIAPP_CUDA_CHECK(cudaEventCreateWithFlags(&st->done[b], cudaEventDisableTiming));
    per_device[device] = st;
  }
  return per_device[device];
}

// Calls staged_copy(staging) with the current device's staging held, or where it cannot be had makes
// the driver's own copy (synchronous for the caller when to the host, as a staged one is).
template <class StagedCopy>
void copy_with_staging(cudaStream_t s, void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                       StagedCopy staged_copy) {
  const std::lock_guard lock(staging_mutex);
  if (Staging* st = staging()) return staged_copy(*st);
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, s));
  if (kind == cudaMemcpyDeviceToHost) MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace

void staged_copy_to_device(void* stream, void* dst, const void* src, std::size_t bytes) {
  const auto s = static_cast<cudaStream_t>(stream);
  copy_with_staging(s, dst, src, bytes, cudaMemcpyHostToDevice, [&](Staging& st) {
    for (std::size_t at = 0, c = 0; at < bytes; at += chunk_bytes, ++c) {
      const std::size_t b = c % 2, n = std::min(chunk_bytes, bytes - at);
      MINIAPP_CUDA_CHECK(cudaEventSynchronize(st.done[b]));  // the chunk's last copy has read it
      copy_in_parallel(st.buffer[b], static_cast<const char*>(src) + at, n);
      MINIAPP_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(dst) + at, st.buffer[b], n, cudaMemcpyHostToDevice, s));
      MINIAPP_CUDA_CHECK(cudaEventRecord(st.done[b], s));
    }
  });
}

void staged_copy_to_host(void* stream, void* dst, const void* src, std::size_t bytes) {
  const auto s = static_cast<cudaStream_t>(stream);
  copy_with_staging(s, dst, src, bytes, cudaMemcpyDeviceToHost, [&](Staging& st) {
    const std::size_t chunks = (bytes + chunk_bytes - 1) / chunk_bytes;
    const auto fetch = [&](std::size_t c) {  // chunk c into its buffer, once the buffer's last copy is done
      const std::size_t b = c % 2, at = c * chunk_bytes;
      MINIAPP_CUDA_CHECK(cudaEventSynchronize(st.done[b]));
      MINIAPP_CUDA_CHECK(cudaMemcpyAsync(st.buffer[b], static_cast<const char*>(src) + at,
                                         std::min(chunk_bytes, bytes - at), cudaMemcpyDeviceToHost, s));
      MINIAPP_CUDA_CHECK(cudaEventRecord(st.done[b], s));
    };
    for (std::size_t c = 0; c < std::min<std::size_t>(2, chunks); ++c) fetch(c);
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t b = c % 2, at = c * chunk_bytes;
      MINIAPP_CUDA_CHECK(cudaEventSynchronize(st.done[b]));
      copy_in_parallel(static_cast<char*>(dst) + at, st.buffer[b], std::min(chunk_bytes, bytes - at));
      if (c + 2 < chunks) fetch(c + 2);
    }
  });
}

}  // namespace miniapp::cuda::detail
