#pragma once
#include <array>
#include <functional>
#include <memory>

#include "operators/backend/kernel_graph.hpp"

namespace miniapp::time {

// One sub-step of the time step replayed as a recorded KernelGraph, so that the GPU runs its kernels
// back to back without a host launch each (what a small mesh's kernels of a few µs wait for). A graph
// replays its calls with the pointers they had when recorded, so the sub-step is recorded once per
// `key`: the buffers it touches that change between steps (uⁿ and uⁿ⁻¹ swap roles every step, hence
// two recordings kept). Scalars that change every step must come from executor memory (Coefficient).
// Where nothing can be recorded (the CPU backend, a sub-step that synchronises) the sub-step simply
// runs, and is not offered to the recorder again; with profiling on it runs plainly too.
class SubStepGraph {
 public:
  // enabled = false: always run plainly (e.g. on several ranks, whose halo updates go through MPI
  // on the host and must not be frozen into a graph).
  SubStepGraph(const Executor& exec, bool enabled);

  // Runs `work` (replayed when recorded for `key`, recorded first when not); true when it ran as a
  // graph replay, false when launched plainly.
  bool run(const void* key, const std::function<void()>& work);

 private:
  struct Recording {
    const void* key = nullptr;
    std::unique_ptr<KernelGraph> graph;
  };
  Executor exec_;
  bool enabled_;
  std::array<Recording, 2> recordings_;
  int next_ = 0;  // the recording to replace next
};

}  // namespace miniapp::time
