#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/types.hpp"
#include "operators/backend/kernel_counters.hpp"

namespace miniapp {

enum class Backend { cpu, cuda };
std::string_view name(Backend backend);

// Where the time loop runs: the backend, its device and stream, its allocator, and the kernel
// counters every front-end call adds to. Copies share the same state (stream, counters).
class Executor {
 public:
  static Executor cpu();
  // Throws miniapp::Error when the CUDA backend is not built or no device is visible.
  static Executor cuda(int device = 0);
  // "cpu", "cuda", or "auto" (CUDA when built and a device is visible, else CPU).
  static Executor from_name(std::string_view name);

  Backend backend() const;
  int device() const;
  void* stream() const;  // cudaStream_t on CUDA, nullptr on CPU
  std::string description() const;  // e.g. "cpu (2 threads)" or "cuda:0 NVIDIA H100"
  // The sELL slice height used unless a case or option sets one: one warp per slice on CUDA, one
  // cache line of doubles per slice column on the CPU.
  index_t default_slice_height() const;
  KernelCounters& counters() const;

  // With profiling on, asynchronous backends synchronise after each kernel so per-kernel seconds are
  // exact; off by default (CPU kernels are always timed: they are synchronous).
  void set_profiling(bool on) const;
  bool profiling() const;
  // Tells recorders that a profiler's activity trace (CUPTI) is on: a recording made before is no longer
  // reusable (KernelGraph::reusable), since CUPTI reports every run of a device loop's body only in
  // graphs instantiated while it traces (of one made before, the first run only). Off by default.
  void set_tracing(bool on) const;
  bool tracing() const;

  void* allocate(std::size_t bytes) const;
  void deallocate(void* ptr) const noexcept;
  // A host block the CPU backend takes over as its memory (Array::from_host of a moved vector),
  // counted in bytes_allocated until `forget_adopted`; its owner frees it.
  void count_adopted(void* ptr, std::size_t bytes) const;
  void forget_adopted(void* ptr) const noexcept;
  // Bytes requested by allocate and not yet deallocated, over every copy of this executor: what the
  // up-front memory estimate (miniapp/run/memory_estimate.hpp) is tested against.
  std::size_t bytes_allocated() const;
  void copy_from_host(void* dst, const void* src, std::size_t bytes) const;
  void copy_to_host(void* dst, const void* src, std::size_t bytes) const;
  void copy(void* dst, const void* src, std::size_t bytes) const;
  void synchronize() const;

 private:
  struct State;
  explicit Executor(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

}  // namespace miniapp
