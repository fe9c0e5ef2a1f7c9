#pragma once
#include <cstdint>
#include <functional>
#include <memory>

#include "operators/backend/executor.hpp"

namespace miniapp {

namespace cuda {
class Graph;
}

// The condition of a loop recorded by KernelGraph::record_loop, handed to the kernel of its body that
// decides whether the device runs the body again (cg_loop_test). 0: no loop (the call only counts).
struct LoopCondition {
  std::uint64_t handle = 0;
};

// A batch of kernel calls recorded once and replayed (a CUDA Graph): one host call launches the whole
// batch, and the GPU runs its kernels back to back instead of waiting for the host between them. A
// replay repeats the recorded calls with their recorded arguments (pointers, sizes, scalars passed by
// value); what they read from device memory may change between replays (CG's α, β, ρ live there).
// CPU kernels run when they are called, so nothing can be recorded on the CPU backend.
class KernelGraph {
 public:
  explicit KernelGraph(const Executor& exec);
  ~KernelGraph();
  KernelGraph(const KernelGraph&) = delete;
  KernelGraph& operator=(const KernelGraph&) = delete;

  // Records the kernels that `work` queues on the executor, without running them, and the kernel-
  // counter tallies it adds, which are taken back here and added at each replay; replaces the previous
  // recording. Returns false, with nothing recorded and the counters as before, on the CPU backend,
  // with profiling on (it synchronises after each kernel), or when `work` makes a call that cannot be
  // recorded (a host synchronisation, an allocation) or throws: the caller then runs `work` itself.
  bool record(const std::function<void()>& work);
  // Queues the recorded work (asynchronous) and adds its tallies; returns true. With profiling on it
  // does nothing and returns false: every kernel must then be launched alone to be timed, so the
  // caller runs the work itself. Precondition: record returned true.
  bool replay() const;
  // Records `body` as a loop that the device runs without the host: the body once, then again for as
  // long as its condition kernel (which `body` must queue last, given the LoopCondition) says so.
  // `body` is captured twice: first alone, kept nowhere, to refuse a body that cannot be recorded
  // before it reaches the loop's capture (see cuda::Graph::abandon_pending).
  // One replay then runs a whole solve's batches with no host round trip between them. Returns false,
  // with nothing recorded, where record does, and where the CUDA runtime or driver has no conditional
  // graph nodes (before 12.4). Its replay adds no tallies: only the device knows how many times the
  // body ran; count them with count_runs once known.
  bool record_loop(const std::function<void(LoopCondition)>& body);
  // Whether record_loop can record on `backend` (CUDA with conditional graph nodes).
  static bool loops_supported(Backend backend);
  // Adds the tallies of `runs` runs of a recorded loop's body to the counters.
  void count_runs(std::uint64_t runs) const;
  // Something is recorded, and under the executor's present tracing state (Executor::set_tracing): a
  // caller that keeps a recording across calls records again when this is false.
  bool reusable() const;

 private:
  // Runs `work` on the stream being captured and ends the capture with `end` (or `abort` if work
  // throws: the caller then runs the work itself); keeps its tallies, not in the counters.
  bool capture(const std::function<void()>& work, const std::function<bool()>& end, const std::function<void()>& abort);

  Executor exec_;
  std::unique_ptr<cuda::Graph> graph_;
  KernelCounters tallies_;  // what one replay (a loop: one run of its body) adds to the counters
  bool recorded_ = false;
  bool loop_ = false;       // the recording is a loop (record_loop)
  bool traced_ = false;     // recorded with the executor's tracing on
};

}  // namespace miniapp
