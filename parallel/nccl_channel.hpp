#pragma once
#include <memory>
#include <span>

#include "parallel/communicator.hpp"
#include "parallel/halo_plan.hpp"
#include "operators/backend/executor.hpp"

namespace miniapp::parallel {

// True when this build has NCCL (CUDA builds that found it).
bool nccl_built();

// Halo messages between GPUs through NCCL (grouped ncclSend/ncclRecv), on a communication stream beside
// the executor's compute stream, with no host synchronisation. A halo update marks the pack with
// packed() and posts the messages with exchange() only once the work that may overlap them (the inner
// SpMV) is queued: the messages then wait for the pack alone, and the host's time posting them
// (several µs) runs beside that work on the GPU instead of delaying its launch. Without NCCL in the
// build the constructor throws miniapp::Error saying so.
class NcclChannel {
 public:
  // Collective over `comm`: rank 0 makes the NCCL id, MPI broadcasts it, every rank joins on its
  // executor's device. `exec` must be a CUDA executor.
  NcclChannel(const Communicator& comm, const Executor& exec);
  ~NcclChannel();
  NcclChannel(const NcclChannel&) = delete;
  NcclChannel& operator=(const NcclChannel&) = delete;

  // The send buffer is complete once the work queued so far on the compute stream has run.
  void packed();
  // Sends and receives one block of the plan per entry of `recv` once the mark of packed() is reached:
  // vector v's values for neighbour nb at send + v·send_stride + nb.send_offset, landing at recv[v] +
  // nb.recv_offset; work queued on the compute stream afterwards waits for their arrival.
  // Asynchronous for the host.
  void exchange(const HaloPlan& plan, const double* send, index_t send_stride, std::span<double* const> recv);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace miniapp::parallel
