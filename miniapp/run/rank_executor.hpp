#pragma once
#include <string_view>

#include "operators/backend/executor.hpp"
#include "parallel/communicator.hpp"

namespace miniapp::run {

// The executor of this rank for --backend `backend` (cpu, cuda, auto). One rank: Executor::from_name.
// Several with CUDA: GPU i of a node goes to the node's i-th rank; a node with more ranks than GPUs is
// refused on every rank (collective) unless MINIAPP_ALLOW_GPU_SHARING=1, which shares them round-robin
// (for tests only: the ranks then compete for one device).
Executor rank_executor(std::string_view backend, const parallel::Communicator* comm);

}  // namespace miniapp::run
