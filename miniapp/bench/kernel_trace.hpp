#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "operators/backend/kernel_counters.hpp"

namespace miniapp::bench {

// What the device ran between a KernelTrace's construction and stop(), from CUPTI's activity records:
// the timeline a profiler shows, kernels replayed from graphs included, with nothing added between
// kernels (Executor profiling, by contrast, synchronises around each front-end call).
struct KernelTimeline {
  std::array<double, kernel_kind_count> seconds{};  // summed durations of the backend's kernels, by kind
  double unclassified_seconds = 0;                 // kernels of no known kind (vendor libraries)
  std::vector<std::string> unclassified;           // their names, once each
  double busy_seconds = 0;                         // union of all records' intervals: the device at work
  long long records = 0;                           // kernels and device copies seen
  struct Named {
    std::string name;  // the kernel's own name (kernel_base_name), or "copy"
    long long count = 0;
    double seconds = 0;
  };
  std::vector<Named> by_name;  // the same time per kernel, largest first
};

// A kernel's own name from its mangled name: "map_kernel" for
// "void miniapp::cuda::(anonymous namespace)::map_kernel<…>(…)"; the name itself when not mangled.
std::string kernel_base_name(std::string_view mangled_name);

// The kernel class (KernelKind) of one of the backend's CUDA kernels from its mangled name, as its
// front end counts it; nullopt for any other kernel. A kernel added to the backend must be added here.
std::optional<KernelKind> backend_kernel_kind(std::string_view mangled_name);

// Records the device's kernels and copies from construction to stop() (CUPTI activity tracing). Only
// one at a time in a process.
class KernelTrace {
 public:
  // Whether this build has CUPTI (the CUDA backend built with the toolkit's CUPTI library).
  static bool available();
  KernelTrace();  // throws miniapp::Error when not available
  ~KernelTrace();
  KernelTrace(const KernelTrace&) = delete;
  KernelTrace& operator=(const KernelTrace&) = delete;
  // Drops what was recorded so far (e.g. a warm-up under the trace); the caller synchronises first.
  void discard();
  // Ends the recording; the caller synchronises the device first so that every record is complete.
  KernelTimeline stop();

 private:
  bool running_ = false;
};

}  // namespace miniapp::bench
