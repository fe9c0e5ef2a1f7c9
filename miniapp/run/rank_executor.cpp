#include "miniapp/run/rank_executor.hpp"

#include <omp.h>

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

// Fewer threads than this keep every core for the mesh: one taken from two or three costs more than
// the context it hides.
constexpr int fewest_threads_to_share = 4;

BackgroundExecutor::BackgroundExecutor(std::string_view backend, const parallel::Communicator* comm) {
  const std::string name(backend);
  const bool one_rank = !comm || comm->size() == 1;
  const int threads = omp_get_max_threads();
  if (name == "cpu" || !cuda::built()) {
    std::promise<Executor> made;
    made.set_value(rank_executor(name, comm));
    executor_ = made.get_future();
  } else if (one_rank && threads >= fewest_threads_to_share) {
    caller_threads_ = threads;
    omp_set_num_threads(threads - 1);
    executor_ = std::async(std::launch::async, [name] { return rank_executor(name, nullptr); });
  } else {
    executor_ = std::async(std::launch::deferred, [name, comm] { return rank_executor(name, comm); });
  }
}

BackgroundExecutor::~BackgroundExecutor() { give_back_core(); }

void BackgroundExecutor::give_back_core() {
  if (caller_threads_) omp_set_num_threads(*caller_threads_);
  caller_threads_.reset();
}

Executor BackgroundExecutor::take() {
  give_back_core();
  return executor_.get();
}

}  // namespace miniapp::run
