// The NCCL transport in a build without CUDA or without NCCL: it says so.
#include "parallel/nccl_channel.hpp"

namespace miniapp::parallel {

bool nccl_built() { return false; }

struct NcclChannel::State {};

NcclChannel::NcclChannel(const Communicator&, const Executor&) {
  throw Error("--comm nccl: this miniapp was built without NCCL (it needs a CUDA build that finds libnccl)");
}
NcclChannel::~NcclChannel() = default;
void NcclChannel::packed() {}
void NcclChannel::exchange(const HaloPlan&, const double*, index_t, std::span<double* const>) {}

}  // namespace miniapp::parallel
