#include "miniapp/time/sub_step_graph.hpp"

namespace miniapp::time {

SubStepGraph::SubStepGraph(const Executor& exec, bool enabled)
    : exec_(exec), enabled_(enabled && exec.backend() == Backend::cuda) {}

bool SubStepGraph::run(const void* key, const std::function<void()>& work) {
  if (!enabled_ || exec_.profiling()) {  // profiling synchronises after every kernel: nothing to record
    work();
    return false;
  }
  for (const Recording& r : recordings_)
    if (r.graph && r.key == key) {
      r.graph->replay();
      return true;
    }
  Recording& r = recordings_[next_];
  if (!r.graph) r.graph = std::make_unique<KernelGraph>(exec_);
  if (!r.graph->record(work)) {
    enabled_ = false;  // work that cannot be recorded (it synchronises): it ran nothing, run it now
    work();
    return false;
  }
  r.key = key;
  next_ = 1 - next_;
  r.graph->replay();
  return true;
}

}  // namespace miniapp::time
