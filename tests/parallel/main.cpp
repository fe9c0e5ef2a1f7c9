// Catch2 main of the MPI tests: MPI lives for the whole run (MpiSession), every rank runs every test
// case, and mpirun reports failure when any rank's tests fail.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "parallel/communicator.hpp"

int main(int argc, char** argv) {
  miniapp::parallel::MpiSession mpi(argc, argv);
  return Catch::Session().run(argc, argv);
}
