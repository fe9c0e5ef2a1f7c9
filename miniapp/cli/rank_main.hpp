#pragma once
#include <functional>
#include <string_view>

#include "parallel/communicator.hpp"

namespace miniapp::cli {

// The body of a subcommand that runs on every rank of an MPI job (one rank without mpirun): starts MPI,
// runs `body` with MPI_COMM_WORLD, and ends it. Errors: a CollectiveError (every rank has it) is
// reported once, by rank 0, and every rank returns 1; any other exception in a multi-rank job may be
// one rank's alone while the others wait for it in a collective, so that rank reports it and aborts
// the job (MPI_Abort) rather than let the others hang. With one rank, exceptions go to main.
int run_on_ranks(int& argc, char**& argv, std::string_view command,
                 const std::function<int(const parallel::Communicator&)>& body);

}  // namespace miniapp::cli
