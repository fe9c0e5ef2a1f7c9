#pragma once
#include <vector>

#include "parallel/local_numbering.hpp"

namespace miniapp::parallel {

// What one rank sends to and receives from one neighbour in a halo update: send_index[send_offset,
// + send_count) are owned (interface) local indices packed for it, recv_index[recv_offset, +
// recv_count) the halo local indices its values land in, in the same order on both sides. The halo is
// contiguous in arrival order: recv_index[h] = owned_count + h, so a message may land in place.
struct HaloNeighbour {
  int rank = 0;
  index_t send_offset = 0, send_count = 0;
  index_t recv_offset = 0, recv_count = 0;
};

struct HaloPlan {
  std::vector<HaloNeighbour> neighbours;  // by increasing rank
  std::vector<index_t> send_index;
  std::vector<index_t> recv_index;
};

// Builds the plan (collective): each rank asks the owner of its halo cells for them by global index
// (one MPI_Alltoall of counts, then point-to-point lists), and the owner maps them to local indices.
// Needs no global data, so it holds for a distributed mesh too. Throws on every rank when some rank
// is asked for a cell that is not one of its interface cells (inconsistent partitions).
HaloPlan build_halo_plan(const Communicator& comm, const LocalNumbering& numbering);

// The size of the plan's send_index (the owned cells this rank sends in an update of one vector),
// from the exchange of counts alone (collective): what an exchange's buffers will hold, before it is made.
index_t halo_send_count(const Communicator& comm, const LocalNumbering& numbering);

}  // namespace miniapp::parallel
