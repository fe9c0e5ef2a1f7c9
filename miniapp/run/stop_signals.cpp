#include "miniapp/run/stop_signals.hpp"

#include <cstring>

namespace miniapp::run {
namespace {

constexpr int stop_signals[3] = {SIGTERM, SIGINT, SIGHUP};

volatile std::sig_atomic_t first_signal = 0;
int installed = 0;  // StopSignals alive; the outermost installs and restores the handlers

extern "C" void on_stop_signal(int signal) {
  if (first_signal == 0) {
    first_signal = signal;
    return;
  }
  // The second signal: the user insists. The default action ends the process with this signal.
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace

StopSignals::StopSignals() {
  if (installed++ > 0) return;
  first_signal = 0;
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // Interrupted system calls (file writes, MPI's waits) resume rather than fail with EINTR.
  action.sa_flags = SA_RESTART;
  for (int i = 0; i < 3; ++i) sigaction(stop_signals[i], &action, &previous_[i]);
}

StopSignals::~StopSignals() {
  if (--installed > 0) return;
  for (int i = 0; i < 3; ++i) sigaction(stop_signals[i], &previous_[i], nullptr);
}

int StopSignals::received() { return first_signal; }

std::string signal_name(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    default: return "signal " + std::to_string(signal);
  }
}

}  // namespace miniapp::run
