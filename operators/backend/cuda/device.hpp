#pragma once
#include <vector>
#include <cstddef>
#include <cstdint>
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

// Events at several points of a stream's work, recorded without waiting: the device time between two
// of them once the later one has passed (stretches of a time step, timed without draining the stream).
class StreamMarks {
 public:
  StreamMarks(void* stream, int count);
  ~StreamMarks();
  StreamMarks(const StreamMarks&) = delete;
  StreamMarks& operator=(const StreamMarks&) = delete;
  void record(int i);                    // records event i on the stream
  double seconds(int from, int to) const;  // waits for event `to`; seconds from event `from` to it

 private:
  void* stream_;
  std::vector<void*> events_;
};

// Device time between two points of a stream's work, measured by a pair of CUDA events: what the
// kernel benchmark reports (launch gaps on the stream included, host-side overhead excluded).
class StreamTimer {
 public:
  explicit StreamTimer(void* stream) : marks_(stream, 2) {}
  void start() { marks_.record(0); }  // records the start event on the stream
  double stop() {                     // records the end event, waits for it; seconds since start()
    marks_.record(1);
    return marks_.seconds(0, 1);
  }

 private:
  StreamMarks marks_;
};

// Work recorded from a stream into a CUDA Graph, and its replay (graph.cu). Recording does not run
// anything: begin_capture makes the stream record what is queued on it (the calling thread may make no
// call that cannot be recorded: a synchronisation, an allocation), end_capture turns the recording
// into an executable graph, and launch queues the whole recording with one call.
class Graph {
 public:
  Graph() = default;
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  static void begin_capture(void* stream);
  // Ends the capture begun on `stream` and makes it this graph's work, updating the executable graph
  // in place when the recording has its predecessor's shape (cheap), else instantiating it anew.
  // Returns false, keeping nothing, when the capture was invalidated by a call that cannot be recorded.
  bool end_capture(void* stream);
  // Ends a capture and drops it, after a failure in the middle of recording; never throws.
  static void abort_capture(void* stream) noexcept;
  // Ends a capture and drops it, instantiating nothing: whether the work could be recorded.
  static bool end_trial_capture(void* stream);
  // Queues the recorded work on `stream` (asynchronous). Precondition: end_capture returned true.
  void launch(void* stream) const;

  // Loops: a graph of one conditional WHILE node (CUDA 12.4 and later, runtime and driver) whose body
  // is recorded from `stream` between begin_loop_capture and end_loop_capture. The body runs once per
  // launch, then again while a kernel of it sets the returned condition handle to 1 (a kernel calls
  // cudaGraphSetConditional with it). end_loop_capture returns false, keeping nothing, when the body's
  // capture was invalidated or cannot be made a loop; abort_loop_capture gives up a half-made loop.
  // (KernelGraph::record_loop tries a body with a trial capture first.) Loops need conditional nodes
  // (CUDA 12.4) and MINIAPP_NO_DEVICE_LOOPS not set to 1.
  static bool loops_supported();
  std::uint64_t begin_loop_capture(void* stream);
  bool end_loop_capture(void* stream);
  void abort_loop_capture(void* stream) noexcept;

 private:
  void drop_pending() noexcept;
  void abandon_pending() noexcept;
  void* exec_ = nullptr;  // cudaGraphExec_t
  std::size_t nodes_ = 0;  // of the graph exec_ was made from (0 for a loop: never updated in place)
  void* pending_ = nullptr;  // cudaGraph_t: the loop being recorded
};

}  // namespace miniapp::cuda
