#include "miniapp/cli/rank_main.hpp"

#include <iostream>

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
    std::cerr << "miniapp " << command << ": error on rank " << world.rank() << ": " << e.what() << "\n"
              << std::flush;
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 1;
}

}  // namespace miniapp::cli
