#pragma once
#include <chrono>
#include <iosfwd>

#include "core/types.hpp"
#include "parallel/communicator.hpp"

namespace miniapp::run {

// Prints "  stage ....... 0.123 s (cpu 0.240 s)   peak host 1.23 GB" when a set-up stage is done: its
// wall time, the CPU time of the process's threads meanwhile (against the wall time: how parallel the
// stage ran, or how little of the host it got), and the process's peak resident memory so far, which
// shows the stage that set it.
class StageTimer {
 public:
  StageTimer(std::ostream& log, const char* stage);
  ~StageTimer();
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  std::ostream& log_;
  const char* stage_;
  std::chrono::steady_clock::time_point start_;
  double cpu_start_;
};

// The start-up's last line: its wall time since `start` and the peak host memory of the process per
// cell of this rank; on several ranks (collective over `comm`) the largest and smallest per rank.
void report_startup(std::ostream& log, std::chrono::steady_clock::time_point start, index_t cells,
                    const parallel::Communicator* comm);

}  // namespace miniapp::run
