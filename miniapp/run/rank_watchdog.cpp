#include "miniapp/run/rank_watchdog.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <sstream>

namespace miniapp::run {
namespace {

using clock = std::chrono::steady_clock;

constexpr int tag_to_root = 1, tag_from_root = 2;

// Seconds as a reader wants them: "3", "1.5", "12.3".
std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << std::setprecision(3) << seconds;
  return text.str();
}

double now_seconds() { return std::chrono::duration<double>(clock::now().time_since_epoch()).count(); }

// What /proc says of the process `pid` of this host: "" while it runs, else why it will not answer.
std::string process_state(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) return "is gone";
  const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The state follows the command name, which is in parentheses and may hold spaces.
  const auto close = stat.rfind(')');
  const char state = close != std::string::npos && close + 2 < stat.size() ? stat[close + 2] : '?';
  if (state == 'T' || state == 't') return "is stopped (SIGSTOP or a debugger)";
  if (state == 'Z' || state == 'X') return "has died";
  return "";
}

// Prints `message` and ends the whole job: MPI_Abort when called from the thread that owns MPI.
[[noreturn]] void end_job(MPI_Comm comm, const std::string& message) {
  std::fprintf(stderr, "miniapp run: error: %s\n", message.c_str());
  std::fflush(stderr);
  MPI_Abort(comm, 1);
  std::_Exit(1);
}

}  // namespace

RankWatchdog::RankWatchdog(const parallel::Communicator& comm, double timeout_seconds)
    : comm_(comm.duplicate()), timeout_(timeout_seconds) {
  // Every rank's host and pid, for the thread's message about stalled peers.
  char host[64] = {};
  gethostname(host, sizeof host - 1);
  std::vector<char> hosts(64 * static_cast<std::size_t>(comm_.size()));
  std::vector<int> pids(static_cast<std::size_t>(comm_.size()));
  const int pid = static_cast<int>(::getpid());
  MINIAPP_MPI_CHECK(MPI_Allgather(host, 64, MPI_CHAR, hosts.data(), 64, MPI_CHAR, comm_.get()));
  MINIAPP_MPI_CHECK(MPI_Allgather(&pid, 1, MPI_INT, pids.data(), 1, MPI_INT, comm_.get()));
  for (int r = 0; r < comm_.size(); ++r) peers_.push_back({std::string(&hosts[64 * r]), pids[r]});
  last_boundary_ = now_seconds();
  if (timeout_ > 0) watcher_.emplace([this] { watch(); });
}

RankWatchdog::~RankWatchdog() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  stop_watching_.notify_all();
  if (watcher_) watcher_->join();
}

int RankWatchdog::agree_on_stop(long step, int signal) {
  at_boundary_ = true;
  const int size = comm_.size();
  std::vector<MPI_Request> requests;
  std::vector<int> from(size, 0), ranks;
  int decision = signal;
  if (comm_.rank() == 0) {
    for (int r = 1; r < size; ++r) {
      requests.emplace_back();
      ranks.push_back(r);
      MINIAPP_MPI_CHECK(MPI_Irecv(&from[r], 1, MPI_INT, r, tag_to_root, comm_.get(), &requests.back()));
    }
    wait_or_abort(requests, ranks, step);
    decision = std::max(signal, *std::max_element(from.begin(), from.end()));
    requests.assign(static_cast<std::size_t>(size - 1), MPI_REQUEST_NULL);
    for (int r = 1; r < size; ++r)
      MINIAPP_MPI_CHECK(MPI_Isend(&decision, 1, MPI_INT, r, tag_from_root, comm_.get(), &requests[r - 1]));
    wait_or_abort(requests, ranks, step);
  } else {
    requests.assign(2, MPI_REQUEST_NULL);
    ranks = {0, 0};
    MINIAPP_MPI_CHECK(MPI_Isend(&signal, 1, MPI_INT, 0, tag_to_root, comm_.get(), &requests[0]));
    MINIAPP_MPI_CHECK(MPI_Irecv(&decision, 1, MPI_INT, 0, tag_from_root, comm_.get(), &requests[1]));
    wait_or_abort(requests, ranks, step);
  }
  last_step_ = step;
  last_boundary_ = now_seconds();
  at_boundary_ = false;
  return decision;
}

// Tests the requests until all are done; after `timeout_` seconds, names the ranks of those still
// pending and ends the job. Spins briefly (the ranks are normally a few microseconds apart), then
// sleeps between tests so that a long wait does not burn a core.
void RankWatchdog::wait_or_abort(std::vector<MPI_Request>& requests, const std::vector<int>& ranks, long step) {
  const auto start = clock::now();
  for (long polls = 0;; ++polls) {
    bool all_done = true;
    for (MPI_Request& r : requests) {
      int done = 1;
      if (r != MPI_REQUEST_NULL) MINIAPP_MPI_CHECK(MPI_Test(&r, &done, MPI_STATUS_IGNORE));
      all_done = all_done && done;
    }
    if (all_done) return;
    const double waited = std::chrono::duration<double>(clock::now() - start).count();
    if (timeout_ > 0 && waited > timeout_) {
      std::vector<int> pending;
      for (std::size_t i = 0; i < requests.size(); ++i)
        if (requests[i] != MPI_REQUEST_NULL && std::find(pending.begin(), pending.end(), ranks[i]) == pending.end())
          pending.push_back(ranks[i]);
      std::string silent;
      for (int r : pending) silent += (silent.empty() ? "" : ", ") + std::to_string(r);
      end_job(comm_.get(), "rank " + std::to_string(comm_.rank()) + ": rank " + silent +
                               " did not reach the end of step " + std::to_string(step) + " within " +
                               seconds_text(timeout_) + " s (run.watchdog_timeout): stopped, hung or dead; ending the job" +
                               stalled_peers());
    }
    if (polls > 10000) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// The watching thread: it calls no MPI (the run holds MPI_THREAD_FUNNELED) and ends this process,
// which makes mpirun end the others.
void RankWatchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!stop_watching_.wait_for(lock, std::chrono::seconds(1), [this] { return done_; })) {
    const double silent = now_seconds() - last_boundary_;
    if (silent <= timeout_ || at_boundary_) continue;
    const std::string message = "rank " + std::to_string(comm_.rank()) + ": step " + std::to_string(last_step_ + 1) +
                                " has not ended after " + seconds_text(silent) +
                                " s (run.watchdog_timeout): the ranks are waiting for one another" + stalled_peers() +
                                "; ending the job";
    std::fprintf(stderr, "miniapp run: error: %s\n", message.c_str());
    std::fflush(stderr);
    std::_Exit(1);
  }
}

std::string RankWatchdog::stalled_peers() const {
  std::string found;
  for (int r = 0; r < static_cast<int>(peers_.size()); ++r) {
    if (r == comm_.rank() || peers_[r].host != peers_[comm_.rank()].host) continue;
    const std::string state = process_state(peers_[r].pid);
    if (!state.empty())
      found += "; rank " + std::to_string(r) + " (pid " + std::to_string(peers_[r].pid) + ") " + state;
  }
  return found;
}

}  // namespace miniapp::run
