#include "parallel/partition_stats.hpp"

#include <array>
#include <iomanip>
#include <ostream>

namespace miniapp::parallel {

PartitionStats partition_stats(const Communicator& comm, const LocalNumbering& numbering) {
  const std::array<double, 4> mine{double(numbering.owned_count()), double(numbering.interface_count),
                                   double(numbering.halo_count), double(numbering.neighbour_ranks().size())};
  std::array<double, 4> lo = mine, hi = mine, sum = mine;
  comm.allreduce(lo, ReduceOp::min);
  comm.allreduce(hi, ReduceOp::max);
  comm.allreduce(sum, ReduceOp::sum);
  auto range = [&](int i) { return CountRange{(long long)lo[i], (long long)hi[i], (long long)sum[i]}; };
  return PartitionStats{comm.size(), range(0), range(1), range(2), range(3)};
}

void print(std::ostream& out, const PartitionStats& s) {
  auto range = [&](const CountRange& r) -> std::ostream& { return out << r.min << ".." << r.max; };
  out << "partition: " << s.ranks << " ranks, " << s.owned.total << " cells; cells per rank ";
  range(s.owned) << " (imbalance " << std::fixed << std::setprecision(3) << s.imbalance() << std::defaultfloat
                 << "), interface ";
  range(s.interface) << ", halo ";
  range(s.halo) << ", neighbours per rank ";
  range(s.neighbours) << "\n";
}

}  // namespace miniapp::parallel
