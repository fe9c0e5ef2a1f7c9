#include "miniapp/predict/comm_recorder.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>

#include "miniapp/core/error.hpp"

namespace miniapp::predict {
namespace {

struct Recording {
  const KernelCounters* counters = nullptr;
  CommRecord record;
  bool in_update = false;  // messages posted, Waitall not yet called
  HaloUpdateRecord current;
  std::map<int, int> sends_per_rank;
  KernelCounters at_first_post;
};

Recording* active = nullptr;

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double bytes_of(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<double>(count) * size;
}

// The update the next message belongs to (a new one after a Waitall).
HaloUpdateRecord& current_update() {
  if (!active->in_update) {
    active->in_update = true;
    active->current = {};
    active->current.position = total_calls(*active->counters);
    active->sends_per_rank.clear();
    active->at_first_post = *active->counters;
  }
  return active->current;
}

}  // namespace

std::uint64_t total_calls(const KernelCounters& counters) {
  std::uint64_t calls = 0;
  for (int k = 0; k < kernel_kind_count; ++k) calls += counters.tally(static_cast<KernelKind>(k)).calls;
  return calls;
}

CommRecorder::CommRecorder(const KernelCounters& counters) {
  if (active) throw Error("CommRecorder: a recorder is already active in this process; only one may record at a time");
  active = new Recording;
  active->counters = &counters;
}

CommRecorder::~CommRecorder() {
  delete active;
  active = nullptr;
}

CommRecord CommRecorder::take() {
  CommRecord r = std::move(active->record);
  active->record = {};
  return r;
}

}  // namespace miniapp::predict

// The MPI profiling interface: these replace the library's entry points for the whole program and
// forward to PMPI_*; outside a recording they cost one pointer test.
extern "C" {

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  using namespace miniapp::predict;
  if (!active) return PMPI_Isend(buf, count, type, dest, tag, comm, request);
  HaloUpdateRecord& u = current_update();
  const double start = now();
  const int code = PMPI_Isend(buf, count, type, dest, tag, comm, request);
  u.seconds += now() - start;
  u.sent_bytes[dest] += bytes_of(count, type);
  u.vectors = std::max(u.vectors, ++active->sends_per_rank[dest]);
  return code;
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  using namespace miniapp::predict;
  if (!active) return PMPI_Irecv(buf, count, type, source, tag, comm, request);
  HaloUpdateRecord& u = current_update();
  const double start = now();
  const int code = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  u.seconds += now() - start;
  u.received_bytes[source] += bytes_of(count, type);
  return code;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  using namespace miniapp::predict;
  if (!active || !active->in_update) return PMPI_Waitall(count, requests, statuses);
  HaloUpdateRecord& u = active->current;
  u.overlapped = active->counters->since(active->at_first_post);
  const double start = now();
  const int code = PMPI_Waitall(count, requests, statuses);
  u.seconds += now() - start;
  active->record.updates.push_back(std::move(u));
  active->in_update = false;
  return code;
}

int MPI_Allreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  using namespace miniapp::predict;
  if (!active) return PMPI_Allreduce(send, receive, count, type, op, comm);
  const double start = now();
  const int code = PMPI_Allreduce(send, receive, count, type, op, comm);
  active->record.reductions.push_back({total_calls(*active->counters), count, now() - start});
  return code;
}

}  // extern "C"
