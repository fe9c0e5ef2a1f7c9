#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "operators/backend/kernel_counters.hpp"
#include "parallel/subdomain.hpp"

// What a rank sends to the others, as its Subdomain reports it (parallel::CommObserver): the halo
// updates and global reductions of the time loop as the code makes them (never typed in), whatever
// the halo transport (MPI, CUDA-aware MPI, NCCL).
namespace miniapp::predict {

// One halo update, from its start to its finish.
struct HaloUpdateRecord {
  std::uint64_t position = 0;  // kernel calls made (executor counters) when it finished
  int vectors = 0;             // vectors updated together: messages per neighbour
  std::map<int, double> sent_bytes, received_bytes;  // per neighbour rank, all vectors (8 B a value)
  // The kernels run between start and finish other than copies: the work overlapped with the
  // messages (the inner SpMV). The update's own pack and unpack are copies and fall in that interval.
  KernelTally overlapped;
  // Wall seconds between start and finish less the kernel seconds the executor counted in between
  // (all of them on the CPU; none on CUDA outside profiling): the time spent communicating.
  double seconds = 0;
};

// One global reduction (its time is not seen: the observer reports its start only).
struct ReductionRecord {
  std::uint64_t position = 0;  // kernel calls made when it started
  int values = 0;
};

struct CommRecord {
  std::vector<HaloUpdateRecord> updates;
  std::vector<ReductionRecord> reductions;
};

// Records the halo updates and reductions of `domain` while it lives: attaches itself as the
// domain's observer on construction and detaches on destruction (the domain must outlive it, and
// have no other observer meanwhile). `counters` (the executor's) give each event its place in the
// sequence of kernel calls, by which it is attributed to a phase of the step. A single-rank domain
// communicates nothing: nothing is recorded.
class CommRecorder final : public parallel::CommObserver {
 public:
  CommRecorder(parallel::Subdomain& domain, const KernelCounters& counters);
  ~CommRecorder() override;
  CommRecorder(const CommRecorder&) = delete;
  CommRecorder& operator=(const CommRecorder&) = delete;

  // The events since construction or the previous take(), which are then forgotten.
  CommRecord take();

  // parallel::CommObserver: called by the domain.
  void halo_started(const parallel::HaloPlan& plan, int vectors, index_t values_per_cell) override;
  void halo_finished() override;
  void reduced(int values) override;

 private:
  parallel::Subdomain& domain_;
  const KernelCounters& counters_;
  CommRecord record_;
  bool in_update_ = false;  // started, not yet finished
  HaloUpdateRecord current_;
  KernelCounters at_start_;
  double started_at_ = 0;
};

}  // namespace miniapp::predict
