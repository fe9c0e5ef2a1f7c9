#pragma once
#include <future>
#include <string_view>

#include "operators/backend/executor.hpp"
#include "parallel/communicator.hpp"

namespace miniapp::run {

// The executor of this rank for --backend `backend` (cpu, cuda, auto). One rank: Executor::from_name.
// Several with CUDA: GPU i of a node goes to the node's i-th rank; a node with more ranks than GPUs is
// refused on every rank (collective) unless MINIAPP_ALLOW_GPU_SHARING=1, which shares them round-robin
// (for tests only: the ranks then compete for one device).
Executor rank_executor(std::string_view backend, const parallel::Communicator* comm);

// rank_executor, begun before the mesh and taken after it: on one rank made on a thread of its own
// while the caller builds the mesh (a CUDA context takes a tenth of a second or so); on several made
// by get() (rank_executor's checks are collective: every rank calls get() at the same point). The CPU
// backend, and any backend of a build without CUDA (which refuses "cuda"), are made at once: such
// errors come before any work. The others (no device) come out of get().
std::future<Executor> begin_rank_executor(std::string_view backend, const parallel::Communicator* comm);

}  // namespace miniapp::run
