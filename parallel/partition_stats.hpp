#pragma once
#include <iosfwd>

#include "parallel/local_numbering.hpp"

namespace miniapp::parallel {

// Per-rank sizes of a partition, reduced over ranks: what is printed at start-up.
struct CountRange {
  long long min = 0, max = 0, total = 0;
};
struct PartitionStats {
  int ranks = 1;
  CountRange owned, interface, halo, neighbours;
  // Heaviest rank over the mean: 1 is perfect balance.
  double imbalance() const { return owned.total > 0 ? double(owned.max) * ranks / double(owned.total) : 1.0; }
};

// Collective: one allreduce each for min, max and sum of the four counts.
PartitionStats partition_stats(const Communicator& comm, const LocalNumbering& numbering);

// E.g. "partition: 4 ranks, cells per rank 2498..2502 (imbalance 1.001), interface 210..260, halo
// 215..270, neighbours per rank 2..3".
void print(std::ostream& out, const PartitionStats& stats);

}  // namespace miniapp::parallel
