#pragma once
#include <vector>

#include "operators/backend/array.hpp"
#include "parallel/halo_plan.hpp"

namespace miniapp::parallel {

// How halo values travel between ranks. Only `mpi` exists: pack on the executor, stage device buffers
// through host memory, MPI point-to-point between host buffers, unpack (thesis §2.4, three stages).
// Planned: mpi_cuda_aware (device buffers handed to MPI, no staging) and nccl.
enum class HaloTransport { mpi };

// The halo update of vectors in the owned-then-halo layout: after exchange(v), v's halo entries hold
// the owners' current values. Owns its index lists and buffers in executor memory; not copyable (MPI
// requests point into the buffers).
class HaloExchange {
 public:
  // Collective (builds the plan, see build_halo_plan). Uses a duplicate of `comm`, so its messages
  // never match anyone else's.
  HaloExchange(const Communicator& comm, const Executor& exec, const LocalNumbering& numbering,
               HaloTransport transport = HaloTransport::mpi);
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;
  // An exchange still in flight is cancelled (its receive requests), never waited on.
  ~HaloExchange();

  // Packs v's interface values (gather kernel), stages them to the host if v is on a device, and
  // posts MPI_Irecv / MPI_Isend to every neighbour. v has local_count() entries on the executor.
  // Work that does not read v's halo (the inner SpMV) may run before finish_exchange.
  // Collective over the neighbours; no other exchange of this object may be in flight.
  void start_exchange(const Vector& v);
  // Waits for the messages and unpacks them into v's halo (scatter kernel). v is the vector given to
  // start_exchange.
  void finish_exchange(Vector& v);
  // start_exchange then finish_exchange.
  void exchange(Vector& v);

  const HaloPlan& plan() const { return plan_; }
  index_t local_count() const { return local_count_; }

 private:
  bool staged() const;  // buffers live on a device: MPI sees host copies

  Communicator comm_;
  Executor exec_;
  HaloPlan plan_;
  index_t local_count_;
  Array<index_t> send_index_, recv_index_;
  Vector send_buffer_, recv_buffer_;
  std::vector<double> host_send_, host_recv_;
  std::vector<MPI_Request> requests_;
  const Vector* in_flight_ = nullptr;
};

}  // namespace miniapp::parallel
