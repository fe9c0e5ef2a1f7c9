#pragma once
#include <iosfwd>

#include "parallel/communicator.hpp"

namespace miniapp::run {

// Prints the peak resident host memory so far (host_peak_resident_bytes) after the mesh stage, with
// the bytes per cell of `owned_cells` (this rank's). One rank: "  host memory peak ... 1.23 GB (1234 B
// per cell)". Several (collective; `comm` not null): rank 0 apart, since it held the whole mesh it
// read, and the range of the others: "  host memory peak ... rank 0 1.23 GB, ranks 1..3 0.31..0.33
// GB; at most 1234 B per owned cell".
void print_host_memory_peak(std::ostream& log, const parallel::Communicator* comm, long long owned_cells);

}  // namespace miniapp::run
