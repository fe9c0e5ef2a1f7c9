#pragma once
#include <csignal>
#include <string>

namespace miniapp::run {

// While alive, SIGTERM, SIGINT and SIGHUP (a batch scheduler's end of allocation, Ctrl-C, a closed
// terminal) do not kill the process: the first one is recorded, for the run loop to finish its step,
// write a checkpoint and stop; a second one ends the process at once (the signal's default action).
// Nested ones share the outermost's handlers and record; the previous handlers come back when the
// outermost is destroyed.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The first stop signal received since construction, 0 if none.
  static int received();

 private:
  struct sigaction previous_[3];
};

// "SIGTERM", "SIGINT", ... ("signal N" for others).
std::string signal_name(int signal);

}  // namespace miniapp::run
