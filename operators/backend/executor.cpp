#include "operators/backend/executor.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <omp.h>

#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/parallel_copy.hpp"
#include "operators/backend/cuda/device.hpp"

namespace miniapp {

std::string_view name(Backend backend) { return backend == Backend::cpu ? "cpu" : "cuda"; }

struct Executor::State {
  Backend backend = Backend::cpu;
  int device = 0;
  void* stream = nullptr;
  bool profiling = false;
  bool tracing = false;
  KernelCounters counters;
  // Live allocations and their sizes, for bytes_allocated (set-up only: the time loop allocates nothing).
  std::mutex allocation_mutex;
  std::unordered_map<void*, std::size_t> allocations;
  std::size_t bytes_allocated = 0;

  void count(void* ptr, std::size_t bytes) {
    const std::lock_guard lock(allocation_mutex);
    allocations.emplace(ptr, bytes);
    bytes_allocated += bytes;
  }
  void uncount(void* ptr) noexcept {
    const std::lock_guard lock(allocation_mutex);
    const auto it = allocations.find(ptr);
    if (it == allocations.end()) return;
    bytes_allocated -= it->second;
    allocations.erase(it);
  }

  ~State() {
    if (stream) cuda::destroy_stream(stream);
  }
};

Executor::Executor(std::shared_ptr<State> state) : state_(std::move(state)) {}

Executor Executor::cpu() { return Executor(std::make_shared<State>()); }

Executor Executor::cuda(int device) {
  if (!cuda::built())
    throw Error("--backend cuda: this miniapp was built without the CUDA backend (configure with -DMINIAPP_CUDA=ON)");
  const int count = cuda::device_count();
  if (count == 0) throw Error("--backend cuda: no CUDA device is visible");
  if (device < 0 || device >= count)
    throw Error("--backend cuda: device " + std::to_string(device) + " requested, " + std::to_string(count) + " visible");
  auto state = std::make_shared<State>();
  state->backend = Backend::cuda;
  state->device = device;
  state->stream = cuda::create_stream(device);
  return Executor(std::move(state));
}

Executor Executor::from_name(std::string_view name) {
  if (name == "cpu") return cpu();
  if (name == "cuda") return cuda();
  if (name == "auto") return cuda::device_count() > 0 ? cuda() : cpu();
  throw Error("--backend: unknown backend '" + std::string(name) + "' (expected cpu, cuda or auto)");
}

Backend Executor::backend() const { return state_->backend; }
int Executor::device() const { return state_->device; }
void* Executor::stream() const { return state_->stream; }
KernelCounters& Executor::counters() const { return state_->counters; }
void Executor::set_profiling(bool on) const { state_->profiling = on; }
bool Executor::profiling() const { return state_->profiling; }
void Executor::set_tracing(bool on) const { state_->tracing = on; }
bool Executor::tracing() const { return state_->tracing; }

std::string Executor::description() const {
  if (backend() == Backend::cpu) return "cpu (" + std::to_string(omp_get_max_threads()) + " threads)";
  return "cuda:" + std::to_string(device()) + " " + cuda::device_name(device());
}

index_t Executor::default_slice_height() const { return backend() == Backend::cuda ? 32 : 8; }

void* Executor::allocate(std::size_t bytes) const {
  void* p = nullptr;
  if (backend() == Backend::cuda) {
    p = cuda::allocate(device(), bytes);
  } else {
    // 64-byte alignment: whole cache lines, full-width vector loads.
    p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p)
      throw Error("out of host memory allocating " + std::to_string(bytes) + " bytes (" +
                  describe_host_memory_available() + ")");
    advise_huge_pages(p, bytes);
  }
  try {
    state_->count(p, bytes);
  } catch (...) {  // the bookkeeping's own allocation failed: do not leak the block
    if (backend() == Backend::cuda) cuda::deallocate(p);
    else std::free(p);
    throw;
  }
  return p;
}

void Executor::count_adopted(void* ptr, std::size_t bytes) const {
  if (backend() != Backend::cpu) throw Error("Executor: only the CPU backend takes host memory over as its own");
  state_->count(ptr, bytes);
}

void Executor::forget_adopted(void* ptr) const noexcept { state_->uncount(ptr); }

void Executor::deallocate(void* ptr) const noexcept {
  state_->uncount(ptr);
  if (backend() == Backend::cuda) cuda::deallocate(ptr);
  else std::free(ptr);
}

std::size_t Executor::bytes_allocated() const {
  const std::lock_guard lock(state_->allocation_mutex);
  return state_->bytes_allocated;
}

void Executor::copy_from_host(void* dst, const void* src, std::size_t bytes) const {
  if (backend() == Backend::cuda) cuda::copy_from_host(stream(), dst, src, bytes);
  else copy_in_parallel(dst, src, bytes);
}

void Executor::copy_to_host(void* dst, const void* src, std::size_t bytes) const {
  counters().add_host_read();
  if (backend() == Backend::cuda) cuda::copy_to_host(stream(), dst, src, bytes);
  else copy_in_parallel(dst, src, bytes);
}

void Executor::copy(void* dst, const void* src, std::size_t bytes) const {
  if (backend() == Backend::cuda) cuda::copy_device(stream(), dst, src, bytes);
  else std::memcpy(dst, src, bytes);
}

void Executor::synchronize() const {
  if (backend() == Backend::cuda) cuda::synchronize(stream());
}

}  // namespace miniapp
