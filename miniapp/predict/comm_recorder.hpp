#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "operators/kernels/kernel_counters.hpp"

// What a rank sends to the others, seen at the MPI interface: the halo updates and global reductions
// of the time loop as the code makes them (never typed in). comm_recorder.cpp defines MPI_Isend,
// MPI_Irecv, MPI_Waitall and MPI_Allreduce through MPI's profiling interface (they forward to PMPI_*),
// so every MPI call of the process passes here; they record only while a CommRecorder lives. The NCCL
// transport bypasses MPI and is not seen.
namespace miniapp::predict {

// One halo update: the messages posted between two MPI_Waitall calls, then the Waitall.
struct HaloUpdateRecord {
  std::uint64_t position = 0;  // kernel calls made (executor counters) when its first message was posted
  int vectors = 0;             // messages per neighbour: one per vector of the update
  std::map<int, double> sent_bytes, received_bytes;  // per neighbour rank, all vectors
  KernelCounters overlapped;   // kernels run while its messages were in flight (the inner SpMV)
  double seconds = 0;          // wall time inside its MPI calls (posting and waiting)
};

// One MPI_Allreduce.
struct ReductionRecord {
  std::uint64_t position = 0;
  int values = 0;
  double seconds = 0;
};

struct CommRecord {
  std::vector<HaloUpdateRecord> updates;
  std::vector<ReductionRecord> reductions;
};

// Records this process's MPI traffic while it lives; `counters` (the executor's) give each event its
// place in the sequence of kernel calls, by which it is attributed to a phase of the step. One
// recorder at a time (throws miniapp::Error otherwise); not thread-safe (MPI_THREAD_FUNNELED).
class CommRecorder {
 public:
  explicit CommRecorder(const KernelCounters& counters);
  ~CommRecorder();
  CommRecorder(const CommRecorder&) = delete;
  CommRecorder& operator=(const CommRecorder&) = delete;

  // The events since construction or the previous take(), which are then forgotten.
  CommRecord take();
};

// Total kernel calls of `counters` (the position of an event).
std::uint64_t total_calls(const KernelCounters& counters);

}  // namespace miniapp::predict
