#pragma once
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "parallel/communicator.hpp"

namespace miniapp::run {

// The ranks of a run agree at the end of every step (on whether a stop signal arrived anywhere), and
// a rank that stops answering ends the job with a message naming it rather than hang the others:
// - at the step boundary, rank 0 collects one message from each rank and answers each, by
//   non-blocking point-to-point calls waited for at most `timeout` seconds; a rank that has not
//   reached the end of the step by then is named (by rank 0; rank 0 by the others), and the job is
//   ended (MPI_Abort);
// - inside a step, where the ranks wait for one another in the solver's blocking collectives, a
//   thread ends the process when no step has ended for `timeout` seconds, naming the peers it finds
//   stopped or gone on the same host (/proc), and mpirun then ends the others. It leaves a rank
//   waiting at the step boundary to the first limit, which names the silent rank on any host.
// timeout 0 turns both limits off (the agreement remains). Collective: construct, call and destroy
// on every rank together.
class RankWatchdog {
 public:
  RankWatchdog(const parallel::Communicator& comm, double timeout_seconds);
  ~RankWatchdog();
  RankWatchdog(const RankWatchdog&) = delete;
  RankWatchdog& operator=(const RankWatchdog&) = delete;

  // The largest signal number any rank passes (0: none), after step `step`, on every rank.
  int agree_on_stop(long step, int signal);

 private:
  struct Peer {
    std::string host;
    int pid = 0;
  };
  void wait_or_abort(std::vector<MPI_Request>& requests, const std::vector<int>& ranks, long step);
  void watch();
  std::string stalled_peers() const;

  parallel::Communicator comm_;
  double timeout_;
  std::vector<Peer> peers_;
  std::atomic<long> last_step_{0};
  std::atomic<double> last_boundary_{0};
  std::atomic<bool> at_boundary_{false};  // in agree_on_stop: its own limit applies
  std::mutex mutex_;
  std::condition_variable stop_watching_;
  bool done_ = false;
  std::optional<std::thread> watcher_;
};

}  // namespace miniapp::run
