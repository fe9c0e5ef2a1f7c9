#include "miniapp/run/rank_executor.hpp"

#include <cstdlib>
#include <string>

#include "operators/backend/cuda/device.hpp"

namespace miniapp::run {

Executor rank_executor(std::string_view backend, const parallel::Communicator* comm) {
  const std::string name(backend);
  if (!comm || comm->size() == 1) return Executor::from_name(name);
  const int devices = cuda::device_count();
  if (name == "cpu" || (name == "auto" && devices == 0)) return Executor::cpu();
  const auto place = comm->node_place();
  const char* sharing = std::getenv("MINIAPP_ALLOW_GPU_SHARING");
  const bool share = sharing && std::string(sharing) == "1";
  comm->check_collectively(devices > 0 && (share || place.rank < devices),
                           "--backend " + name + ": this node runs " + std::to_string(place.size) +
                               " ranks but has " + std::to_string(devices) +
                               " GPU(s); start at most one rank per GPU (or set MINIAPP_ALLOW_GPU_SHARING=1)");
  return Executor::cuda(place.rank % devices);
}

}  // namespace miniapp::run
