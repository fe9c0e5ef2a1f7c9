#pragma once
#include <memory>

#include "parallel/communicator.hpp"
#include "parallel/halo_plan.hpp"
#include "operators/backend/executor.hpp"

namespace miniapp::parallel {

// True when this build has NCCL (CUDA builds that found it).
bool nccl_built();

// Halo messages between GPUs through NCCL (grouped ncclSend/ncclRecv), on a communication stream beside
// the executor's compute stream, so that kernels queued on the compute stream after start() (the inner
// SpMV) run while the messages travel; no host synchronisation at all. Without NCCL in the build the
// constructor throws miniapp::Error saying so.
class NcclChannel {
 public:
  // Collective over `comm`: rank 0 makes the NCCL id, MPI broadcasts it, every rank joins on its
  // executor's device. `exec` must be a CUDA executor.
  NcclChannel(const Communicator& comm, const Executor& exec);
  ~NcclChannel();
  NcclChannel(const NcclChannel&) = delete;
  NcclChannel& operator=(const NcclChannel&) = delete;

  // After the work queued so far on the compute stream (the pack), sends and receives `vectors`
  // blocks of the plan: vector v's values for neighbour nb at send + v·send_stride + nb.send_offset,
  // landing at recv + v·recv_stride + nb.recv_offset. Asynchronous.
  void start(const HaloPlan& plan, const double* send, double* recv, int vectors, index_t send_stride,
             index_t recv_stride);
  // Makes the compute stream wait for the messages of the last start (asynchronous for the host).
  void finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace miniapp::parallel
