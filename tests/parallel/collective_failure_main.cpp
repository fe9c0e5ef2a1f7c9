// A program whose input is bad on rank 1 only (rank 0 when alone): every rank must stop with rank 1's
// message instead of waiting in the next collective. Each rank prints the message it stops with;
// CTest checks rank 0's line and a timeout catches a hang.
#include <iostream>

#include "parallel/communicator.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

int main(int argc, char** argv) {
  MpiSession mpi(argc, argv);
  const Communicator comm;
  try {
    const int failing = comm.size() > 1 ? 1 : 0;
    comm.run_collectively([&] {
      if (comm.rank() == failing) throw Error("case.toml:3: mesh.cells = -4, cells must be positive");
    });
    comm.barrier();  // would hang here if the failing rank had left alone
    std::cout << "rank " << comm.rank() << " was not stopped\n";
    return 0;
  } catch (const Error& e) {
    std::cout << "rank " << comm.rank() << " stops: " << e.what() << std::endl;
    return 1;
  }
}
