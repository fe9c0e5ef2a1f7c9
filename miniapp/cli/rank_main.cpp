#include "miniapp/cli/rank_main.hpp"

#include <iostream>
#include <new>

#include "core/host_memory.hpp"
#include "miniapp/cli/host_allocation.hpp"

namespace miniapp::cli {

int run_on_ranks(int& argc, char**& argv, std::string_view command,
                 const std::function<int(const parallel::Communicator&)>& body) {
  parallel::MpiSession mpi(argc, argv);
  const parallel::Communicator world;
  try {
    return body(world);
  } catch (const parallel::CollectiveError& e) {
    if (world.rank() == 0) std::cerr << "miniapp " << command << ": error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    if (world.size() == 1) throw;
    const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
    std::cerr << "miniapp " << command << ": error on rank " << world.rank() << ": "
              << (memory ? out_of_host_memory_message(last_failed_allocation_bytes()) : std::string(e.what())) << "\n"
              << std::flush;
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 1;
}

}  // namespace miniapp::cli
