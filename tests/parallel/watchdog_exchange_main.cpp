// One rank stops (SIGSTOP, as `kill -STOP` or a debugger would) just before the end of a step: the
// other's watchdog exchange (RankWatchdog::agree_on_stop) must end the job within its limit with a
// message naming the stopped rank. The waiting rank prints when it starts to wait (seconds since the
// epoch); watchdog_exchange_test.sh checks the message and the time to the job's end.
// Usage: mpirun -np 2 watchdog_exchange_test STOPPED_RANK TIMEOUT_SECONDS
#include <csignal>
#include <chrono>
#include <cstdio>
#include <string>

#include "miniapp/run/rank_watchdog.hpp"

using namespace miniapp;

int main(int argc, char** argv) {
  parallel::MpiSession mpi(argc, argv);
  const parallel::Communicator world;
  if (argc != 3 || world.size() != 2) {
    std::fprintf(stderr, "usage: mpirun -np 2 watchdog_exchange_test STOPPED_RANK TIMEOUT_SECONDS\n");
    return 2;
  }
  const int stopped = std::stoi(argv[1]);
  run::RankWatchdog watchdog(world, std::stod(argv[2]));
  if (world.rank() == stopped) {
    std::raise(SIGSTOP);
  } else {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    std::printf("rank %d waits from %.3f\n", world.rank(), std::chrono::duration<double>(now).count());
    std::fflush(stdout);
  }
  watchdog.agree_on_stop(1, 0);
  std::printf("rank %d: the step ended although rank %d is stopped\n", world.rank(), stopped);
  return 1;
}
