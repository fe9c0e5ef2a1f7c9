#pragma once
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "operators/backend/array.hpp"
#include "parallel/halo_plan.hpp"
#include "parallel/nccl_channel.hpp"

namespace miniapp::parallel {

// How halo values travel between ranks (--comm). The CPU backend uses plain MPI.
enum class HaloTransport {
  mpi,             // device buffers staged through host memory, MPI between host buffers (thesis §2.4)
  mpi_cuda_aware,  // device buffers handed to a CUDA-aware MPI library, no staging
  nccl,            // grouped ncclSend/ncclRecv on a stream beside the compute stream
};
// "mpi", "mpi-cuda-aware", "nccl"; throws miniapp::Error naming the choices for anything else.
HaloTransport parse_transport(std::string_view name);
std::string_view name(HaloTransport transport);
// True when the MPI library says (MPIX_Query_cuda_support) that it accepts device pointers.
bool mpi_is_cuda_aware();

// The halo update of vectors in the owned-then-halo layout: after exchange(v), v's halo entries hold
// the owners' current values. Owns its index lists and buffers in executor memory; not copyable (MPI
// requests point into the buffers).
class HaloExchange {
 public:
  // Collective (builds the plan, see build_halo_plan). Uses a duplicate of `comm`, so its messages
  // never match anyone else's. Throws miniapp::Error when the transport cannot run here (a GPU
  // transport on the CPU backend, an MPI that is not CUDA-aware, a build without NCCL).
  HaloExchange(const Communicator& comm, const Executor& exec, const LocalNumbering& numbering,
               HaloTransport transport = HaloTransport::mpi);
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;
  // An exchange still in flight is cancelled (its receive requests), never waited on.
  ~HaloExchange();

  // Packs the interface values of every vector (gather kernel), stages them to the host if they are on
  // a device, and posts MPI_Irecv / MPI_Isend to every neighbour: one message per neighbour and vector,
  // all in flight together. Each vector has local_count() entries on the executor. Work that does not
  // read their halos (the inner SpMV) may run before finish_exchange. Collective over the neighbours;
  // no other exchange of this object may be in flight.
  void start_exchange(std::span<Vector* const> vectors);
  // Waits for the messages, which land in the halos directly (no unpack: the halo is contiguous in
  // arrival order). `vectors` are those given to start_exchange, in the same order.
  void finish_exchange(std::span<Vector* const> vectors);
  // The same for one vector, and both in one call.
  void start_exchange(Vector& v);
  void finish_exchange(Vector& v);
  void exchange(Vector& v);

  const HaloPlan& plan() const { return plan_; }
  // Executor bytes of its index list and of buffers for `vectors` vectors exchanged at once; the same
  // for an exchange that sends `sends` values of each vector (parallel::halo_send_count).
  std::size_t device_bytes(int vectors) const { return device_bytes(send_index_.size(), vectors); }
  static std::size_t device_bytes(index_t sends, int vectors);
  index_t local_count() const { return local_count_; }

 private:
  bool staged() const;  // transport mpi with buffers on a device: MPI sees host copies
  void reserve(int vectors);  // buffers for this many vectors at once
  index_t halo_count() const { return local_count_ - owned_count_; }
  double* halo_of(double* vector) const { return vector + owned_count_; }

  Communicator comm_;
  Executor exec_;
  HaloTransport transport_;
  std::unique_ptr<NcclChannel> nccl_;
  HaloPlan plan_;
  index_t owned_count_, local_count_;
  Array<index_t> send_index_;
  Vector send_buffer_;
  std::vector<double> host_send_, host_recv_;
  std::vector<MPI_Request> requests_;
  int capacity_ = 0;  // vectors the buffers hold
  std::vector<double*> in_flight_;  // data of the vectors of the exchange in flight
  std::vector<double*> halos_;      // their halos, for NCCL
};

}  // namespace miniapp::parallel
