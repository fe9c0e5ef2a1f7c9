// CUDA Graphs of the CUDA backend: stream capture, instantiation (or in-place update) and launch.
// A graph turns a batch of kernel launches (one CG batch: 3 to 6 kernels per iteration, 8 iterations)
// into one host call; the GPU then starts each kernel as the previous one ends, without the host's
// per-launch cost, which is what a small mesh's kernels of a few µs each wait for.
#include <cstdlib>
#include <string_view>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/device.hpp"

namespace miniapp::cuda {

namespace {
cudaGraphExec_t as_exec(void* exec) { return static_cast<cudaGraphExec_t>(exec); }
}  // namespace

Graph::~Graph() {
  drop_pending();
  if (exec_) cudaGraphExecDestroy(as_exec(exec_));
  cudaGetLastError();
}

// Thread-local mode: only this thread's calls are checked against the capture, so another thread's
// work on other streams is not affected, and an unsafe call of this thread invalidates the capture
// instead of running.
void Graph::begin_capture(void* stream) {
  MINIAPP_CUDA_CHECK(cudaStreamBeginCapture(detail::as_stream(stream), cudaStreamCaptureModeThreadLocal));
}

bool Graph::end_capture(void* stream) {
  cudaGraph_t graph = nullptr;
  if (cudaStreamEndCapture(detail::as_stream(stream), &graph) != cudaSuccess || !graph) {
    cudaGetLastError();  // an invalidated capture is an answer (run plainly), not an error
    if (graph) cudaGraphDestroy(graph);
    return false;
  }
  std::size_t nodes = 0;
  MINIAPP_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  if (exec_) {
    // An update needs the same topology: with another node count (another preconditioner, interval
    // or range of batched systems) it is bound to fail, so it is not tried.
    cudaGraphExecUpdateResultInfo info{};
    if (nodes == nodes_ && cudaGraphExecUpdate(as_exec(exec_), graph, &info) == cudaSuccess) {
      cudaGraphDestroy(graph);
      return true;
    }
    cudaGetLastError();  // another shape: instantiate anew
    cudaGraphExecDestroy(as_exec(exec_));
    exec_ = nullptr;
  }
  cudaGraphExec_t exec = nullptr;
  const cudaError_t err = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  if (err != cudaSuccess) detail::throw_cuda_error(err, "cudaGraphInstantiate(&exec, graph, 0)", __FILE__, __LINE__);
  exec_ = exec;
  nodes_ = nodes;
  return true;
}

bool Graph::end_trial_capture(void* stream) {
  cudaGraph_t graph = nullptr;
  const bool recorded = cudaStreamEndCapture(detail::as_stream(stream), &graph) == cudaSuccess && graph;
  if (graph) cudaGraphDestroy(graph);
  cudaGetLastError();  // an invalidated capture is an answer, not an error
  return recorded;
}

void Graph::abort_capture(void* stream) noexcept {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(detail::as_stream(stream), &status) == cudaSuccess && status != cudaStreamCaptureStatusNone) {
    cudaGraph_t graph = nullptr;
    cudaStreamEndCapture(detail::as_stream(stream), &graph);
    if (graph) cudaGraphDestroy(graph);
  }
  cudaGetLastError();
}

void Graph::launch(void* stream) const {
  MINIAPP_CUDA_CHECK(cudaGraphLaunch(as_exec(exec_), detail::as_stream(stream)));
}

// A loop is one conditional WHILE node whose condition starts at 1 at each launch (so the body runs at
// least once) and is then what the body's last kernel sets. The device decides whether to run the
// body again: a whole PCG solve's batches run from one host call, with no round trip between them.
// MINIAPP_NO_DEVICE_LOOPS=1 turns loops off: the host then replays the body batch by batch, the same
// kernels. compute-sanitizer's racecheck and synccheck fail inside conditional nodes
// (tools/ubench/conditional_loop.cu), so tools/gpu/session.sh checks the looping tests this way.
#if CUDART_VERSION >= 12040
bool Graph::loops_supported() {
  static const bool supported = [] {
    const char* off = std::getenv("MINIAPP_NO_DEVICE_LOOPS");
    if (off && std::string_view(off) == "1") return false;
    int driver = 0;
    return cudaDriverGetVersion(&driver) == cudaSuccess && driver >= 12040;
  }();
  return supported;
}

std::uint64_t Graph::begin_loop_capture(void* stream) {
  drop_pending();
  cudaGraph_t loop = nullptr;
  MINIAPP_CUDA_CHECK(cudaGraphCreate(&loop, 0));
  pending_ = loop;
  cudaGraphConditionalHandle condition = 0;
  MINIAPP_CUDA_CHECK(cudaGraphConditionalHandleCreate(&condition, loop, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = condition;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node = nullptr;
#if CUDART_VERSION >= 13000
  MINIAPP_CUDA_CHECK(cudaGraphAddNode(&node, loop, nullptr, nullptr, 0, &params));
#else
  MINIAPP_CUDA_CHECK(cudaGraphAddNode(&node, loop, nullptr, 0, &params));
#endif
  MINIAPP_CUDA_CHECK(cudaStreamBeginCaptureToGraph(detail::as_stream(stream), params.conditional.phGraph_out[0],
                                                   nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
  return condition;
}

bool Graph::end_loop_capture(void* stream) {
  cudaGraph_t body = nullptr;
  if (cudaStreamEndCapture(detail::as_stream(stream), &body) != cudaSuccess || !body) {
    cudaGetLastError();  // invalidated: the caller runs the work plainly
    abandon_pending();
    return false;
  }
  if (exec_) {
    cudaGraphExecDestroy(as_exec(exec_));
    exec_ = nullptr;
  }
  cudaGraphExec_t exec = nullptr;
  const cudaError_t err = cudaGraphInstantiate(&exec, static_cast<cudaGraph_t>(pending_), 0);
  drop_pending();
  if (err != cudaSuccess) {  // a body the driver cannot loop over: run plainly
    cudaGetLastError();
    return false;
  }
  exec_ = exec;
  nodes_ = 0;
  return true;
}
#else
bool Graph::loops_supported() { return false; }
std::uint64_t Graph::begin_loop_capture(void*) {
  throw Error("cuda::Graph: loops need CUDA 12.4 or later (this build has " + std::to_string(CUDART_VERSION) + ")");
}
bool Graph::end_loop_capture(void*) { return false; }
#endif

void Graph::abort_loop_capture(void* stream) noexcept {
  abort_capture(stream);
  abandon_pending();
}

// After a body's capture was invalidated or aborted the driver may already have freed the body graph
// that the loop's node owns, and destroying the loop graph would free it again (a crash inside the
// driver): the half-made loop is left allocated. KernelGraph::record_loop tries the body in a trial
// capture first, so this happens only if the body behaves differently the second time.
void Graph::abandon_pending() noexcept { pending_ = nullptr; }

void Graph::drop_pending() noexcept {
  if (pending_) cudaGraphDestroy(static_cast<cudaGraph_t>(pending_));
  pending_ = nullptr;
}

}  // namespace miniapp::cuda
