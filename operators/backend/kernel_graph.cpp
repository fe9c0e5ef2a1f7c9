#include "operators/backend/kernel_graph.hpp"

#include "core/error.hpp"
#include "operators/backend/cuda/device.hpp"

namespace miniapp {

KernelGraph::KernelGraph(const Executor& exec) : exec_(exec) {}
KernelGraph::~KernelGraph() = default;

bool KernelGraph::record(const std::function<void()>& work) {
  recorded_ = false;
  loop_ = false;
  if (exec_.backend() != Backend::cuda || exec_.profiling()) return false;
  if (!graph_) graph_ = std::make_unique<cuda::Graph>();
  cuda::Graph::begin_capture(exec_.stream());
  return capture(work, [&] { return graph_->end_capture(exec_.stream()); },
                 [&] { cuda::Graph::abort_capture(exec_.stream()); });
}

bool KernelGraph::loops_supported(Backend backend) {
  return backend == Backend::cuda && cuda::Graph::loops_supported();
}

bool KernelGraph::record_loop(const std::function<void(LoopCondition)>& body) {
  recorded_ = false;
  loop_ = true;
  if (!loops_supported(exec_.backend()) || exec_.profiling()) return false;
  if (!graph_) graph_ = std::make_unique<cuda::Graph>();
  // The body captured alone and dropped (its condition kernel only counting): a body that cannot be
  // recorded is refused here, before a loop's capture of it fails.
  cuda::Graph::begin_capture(exec_.stream());
  const bool recordable =
      capture([&] { body(LoopCondition{}); }, [&] { return cuda::Graph::end_trial_capture(exec_.stream()); },
              [&] { cuda::Graph::abort_capture(exec_.stream()); });
  recorded_ = false;
  if (!recordable) return false;
  const LoopCondition condition{graph_->begin_loop_capture(exec_.stream())};
  return capture([&] { body(condition); }, [&] { return graph_->end_loop_capture(exec_.stream()); },
                 [&] { graph_->abort_loop_capture(exec_.stream()); });
}

bool KernelGraph::capture(const std::function<void()>& work, const std::function<bool()>& end,
                          const std::function<void()>& abort) {
  const KernelCounters before = exec_.counters();
  try {
    work();
  } catch (...) {  // a call that cannot be recorded, or a real error that the plain run will report
    abort();
    exec_.counters() = before;
    return false;
  }
  recorded_ = end();
  traced_ = exec_.tracing();
  tallies_ = exec_.counters().since(before);
  exec_.counters() = before;
  return recorded_;
}

bool KernelGraph::replay() const {
  if (!recorded_) throw Error("KernelGraph::replay: nothing recorded (record failed or was not called)");
  if (exec_.profiling()) return false;
  graph_->launch(exec_.stream());
  if (!loop_) exec_.counters() += tallies_;
  return true;
}

void KernelGraph::count_runs(std::uint64_t runs) const {
  if (!recorded_ || !loop_) throw Error("KernelGraph::count_runs: no loop recorded");
  exec_.counters() += tallies_.repeated(runs);
}

bool KernelGraph::reusable() const { return recorded_ && traced_ == exec_.tracing(); }

}  // namespace miniapp
