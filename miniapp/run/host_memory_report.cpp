#include "miniapp/run/host_memory_report.hpp"

#include <algorithm>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

#include "core/host_memory.hpp"

namespace miniapp::run {

void print_host_memory_peak(std::ostream& log, const parallel::Communicator* comm, long long owned_cells) {
  const double bytes = static_cast<double>(host_peak_resident_bytes());
  const double per_cell = bytes / static_cast<double>(std::max(owned_cells, 1LL));
  const int ranks = comm ? comm->size() : 1;
  // Ranks 1.. only (rank 0 excluded by the neutral values), and the worst bytes per cell of all.
  const bool reader = !comm || comm->rank() == 0;
  double others_min = reader ? std::numeric_limits<double>::max() : bytes;
  double others_max = reader ? -1 : bytes;
  double worst_per_cell = per_cell;
  if (ranks > 1) {
    others_min = comm->allreduce(others_min, parallel::ReduceOp::min);
    others_max = comm->allreduce(others_max, parallel::ReduceOp::max);
    worst_per_cell = comm->allreduce(worst_per_cell, parallel::ReduceOp::max);
  }
  // Formatted apart: the log's own precision and flags are left as they were for what follows.
  std::ostringstream line;
  line << "  " << std::left << std::setw(28) << "host memory peak" << std::right << std::fixed << std::setprecision(2);
  if (ranks == 1)
    line << bytes * 1e-9 << " GB (" << std::setprecision(0) << per_cell << " B per cell)\n";
  else
    line << "rank 0 " << bytes * 1e-9 << " GB, ranks 1.." << ranks - 1 << " " << others_min * 1e-9 << ".."
         << others_max * 1e-9 << " GB; at most " << std::setprecision(0) << worst_per_cell << " B per owned cell\n";
  log << line.str();
}

}  // namespace miniapp::run
