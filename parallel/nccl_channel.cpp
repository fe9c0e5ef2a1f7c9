// NCCL transport of the halo exchange; compiled only in CUDA builds that found NCCL (else
// nccl_channel_stub.cpp).
#include "parallel/nccl_channel.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include <string>

namespace miniapp::parallel {
namespace {

void check(ncclResult_t r, const char* call) {
  if (r != ncclSuccess) throw Error(std::string("NCCL: ") + call + " failed: " + ncclGetErrorString(r));
}
void check(cudaError_t r, const char* call) {
  if (r != cudaSuccess) throw Error(std::string("NCCL channel: ") + call + " failed: " + cudaGetErrorString(r));
}

}  // namespace

bool nccl_built() { return true; }

struct NcclChannel::State {
  ncclComm_t comm = nullptr;
  cudaStream_t compute = nullptr, transfer = nullptr;
  cudaEvent_t packed = nullptr, arrived = nullptr;
};

NcclChannel::NcclChannel(const Communicator& comm, const Executor& exec) : state_(std::make_unique<State>()) {
  if (exec.backend() != Backend::cuda) throw Error("--comm nccl needs the CUDA backend (one GPU per rank)");
  ncclUniqueId id{};
  if (comm.rank() == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MINIAPP_MPI_CHECK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm.get()));
  check(cudaSetDevice(exec.device()), "cudaSetDevice");
  check(ncclCommInitRank(&state_->comm, comm.size(), id, comm.rank()), "ncclCommInitRank");
  state_->compute = static_cast<cudaStream_t>(exec.stream());
  // The highest priority: the block scheduler then starts NCCL's kernel as soon as an SM frees up,
  // instead of after every block of the inner SpMV queued before it, which would serialise the two.
  int lowest = 0, highest = 0;
  check(cudaDeviceGetStreamPriorityRange(&lowest, &highest), "cudaDeviceGetStreamPriorityRange");
  check(cudaStreamCreateWithPriority(&state_->transfer, cudaStreamNonBlocking, highest), "cudaStreamCreateWithPriority");
  check(cudaEventCreateWithFlags(&state_->packed, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  check(cudaEventCreateWithFlags(&state_->arrived, cudaEventDisableTiming), "cudaEventCreateWithFlags");
}

NcclChannel::~NcclChannel() {
  if (state_->comm) ncclCommDestroy(state_->comm);
  if (state_->transfer) cudaStreamDestroy(state_->transfer);
  if (state_->packed) cudaEventDestroy(state_->packed);
  if (state_->arrived) cudaEventDestroy(state_->arrived);
}

void NcclChannel::packed() { check(cudaEventRecord(state_->packed, state_->compute), "cudaEventRecord"); }

void NcclChannel::exchange(const HaloPlan& plan, const double* send, index_t send_stride,
                           std::span<double* const> recv) {
  State& s = *state_;
  check(cudaStreamWaitEvent(s.transfer, s.packed, 0), "cudaStreamWaitEvent");
  check(ncclGroupStart(), "ncclGroupStart");
  for (std::size_t v = 0; v < recv.size(); ++v)
    for (const HaloNeighbour& nb : plan.neighbours) {
      if (nb.recv_count > 0)
        check(ncclRecv(recv[v] + nb.recv_offset, nb.recv_count, ncclDouble, nb.rank, s.comm, s.transfer), "ncclRecv");
      if (nb.send_count > 0)
        check(ncclSend(send + v * send_stride + nb.send_offset, nb.send_count, ncclDouble, nb.rank, s.comm, s.transfer),
              "ncclSend");
    }
  check(ncclGroupEnd(), "ncclGroupEnd");
  check(cudaEventRecord(s.arrived, s.transfer), "cudaEventRecord");
  check(cudaStreamWaitEvent(s.compute, s.arrived, 0), "cudaStreamWaitEvent");
}

}  // namespace miniapp::parallel
