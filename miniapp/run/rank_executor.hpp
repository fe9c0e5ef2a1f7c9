#pragma once
#include <future>
#include <optional>
#include <string_view>

#include "operators/backend/executor.hpp"
#include "parallel/communicator.hpp"

namespace miniapp::run {

// The executor of this rank for --backend `backend` (cpu, cuda, auto). One rank: Executor::from_name.
// Several with CUDA: GPU i of a node goes to the node's i-th rank; a node with more ranks than GPUs is
// refused on every rank (collective) unless MINIAPP_ALLOW_GPU_SHARING=1, which shares them round-robin
// (for tests only: the ranks then compete for one device).
Executor rank_executor(std::string_view backend, const parallel::Communicator* comm);

// rank_executor, begun before the mesh and taken after it. On one rank of a CUDA build with a backend
// other than "cpu" and at least four threads, it is made on a thread of its own while the caller
// builds the mesh (a CUDA context takes a tenth of a second or more), and until take() the caller's
// OpenMP teams leave that thread a core: a team on every core waits at each barrier for the member
// the context's thread preempts. Otherwise it is made at once (the CPU backend and a build without
// CUDA: their errors come before any work) or, on several ranks, by take() (rank_executor's checks
// are collective: every rank calls take() at the same point). A missing device is reported by take().
class BackgroundExecutor {
 public:
  BackgroundExecutor(std::string_view backend, const parallel::Communicator* comm);
  BackgroundExecutor(const BackgroundExecutor&) = delete;
  BackgroundExecutor& operator=(const BackgroundExecutor&) = delete;
  ~BackgroundExecutor();

  Executor take();

 private:
  void give_back_core();

  std::future<Executor> executor_;
  std::optional<int> caller_threads_;  // the caller's OpenMP threads while a core is left free
};

}  // namespace miniapp::run
