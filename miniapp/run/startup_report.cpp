#include "miniapp/run/startup_report.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "core/host_memory.hpp"
#include "core/stage_profile.hpp"

namespace miniapp::run {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double gigabytes(double bytes) { return bytes * 1e-9; }

}  // namespace

StageTimer::StageTimer(std::ostream& log, const char* stage)
    : log_(log), stage_(stage), start_(std::chrono::steady_clock::now()), cpu_start_(process_cpu_seconds()) {}

StageTimer::~StageTimer() {
  const double s = seconds_since(start_);
  log_ << "  " << std::left << std::setw(28) << stage_ << std::right << std::fixed << std::setprecision(3) << s
       << " s (cpu " << process_cpu_seconds() - cpu_start_ << " s)   peak host " << std::setprecision(2) << gigabytes(static_cast<double>(host_peak_resident_bytes()))
       << " GB\n" << std::defaultfloat;
}

void report_startup(std::ostream& log, std::chrono::steady_clock::time_point start, index_t cells,
                    const parallel::Communicator* comm) {
  const double seconds = seconds_since(start);
  const double peak = static_cast<double>(host_peak_resident_bytes());
  const double per_cell = peak / std::max<index_t>(cells, 1);
  log << "  start-up " << std::fixed << std::setprecision(3) << seconds << " s; peak host memory "
      << std::setprecision(2) << gigabytes(peak) << " GB, " << std::setprecision(0) << per_cell << " bytes per cell";
  if (comm && comm->size() > 1) {
    // Each rank's own peak over its own cells (halo included): the largest tells whether a rank holds
    // more than its share.
    const double most = comm->allreduce(per_cell, parallel::ReduceOp::max);
    const double least = comm->allreduce(per_cell, parallel::ReduceOp::min);
    const double most_gb = comm->allreduce(gigabytes(peak), parallel::ReduceOp::max);
    log << " on rank 0; per rank " << least << "–" << most << " bytes per cell, at most " << std::setprecision(2)
        << most_gb << " GB";
  }
  log << "\n" << std::defaultfloat;
}

}  // namespace miniapp::run
