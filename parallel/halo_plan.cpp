#include "parallel/halo_plan.hpp"

#include <map>
#include <string>

namespace miniapp::parallel {
namespace {

constexpr int request_tag = 1;

// Global indices this rank needs from each owner (contiguous in the halo, by owner), and the number
// each other rank needs from this one.
struct Requests {
  std::map<int, std::vector<index_t>> wanted;  // owner → global indices, halo order
  std::vector<int> asked_count;                // per rank: cells it asks of this rank
};

Requests count_requests(const Communicator& comm, const LocalNumbering& n) {
  Requests r;
  for (index_t h = 0; h < n.halo_count; ++h)
    r.wanted[n.halo_owner[h]].push_back(n.local_to_global[n.owned_count() + h]);
  std::vector<int> want_count(static_cast<std::size_t>(comm.size()), 0);
  for (const auto& [owner, cells] : r.wanted) want_count[owner] = static_cast<int>(cells.size());
  r.asked_count.assign(want_count.size(), 0);
  MINIAPP_MPI_CHECK(MPI_Alltoall(want_count.data(), 1, MPI_INT, r.asked_count.data(), 1, MPI_INT, comm.get()));
  return r;
}

// Sends every request list and receives those addressed to this rank: asked[q] = global indices q needs.
std::map<int, std::vector<index_t>> trade_requests(const Communicator& comm, const Requests& r) {
  std::map<int, std::vector<index_t>> asked;
  std::vector<MPI_Request> pending;
  for (int q = 0; q < comm.size(); ++q) {
    if (r.asked_count[q] == 0) continue;
    auto& list = asked[q];
    list.resize(static_cast<std::size_t>(r.asked_count[q]));
    MINIAPP_MPI_CHECK(MPI_Irecv(list.data(), r.asked_count[q], MPI_INT, q, request_tag, comm.get(), &pending.emplace_back()));
  }
  for (const auto& [owner, cells] : r.wanted)
    MINIAPP_MPI_CHECK(MPI_Isend(cells.data(), static_cast<int>(cells.size()), MPI_INT, owner, request_tag, comm.get(),
                                &pending.emplace_back()));
  MINIAPP_MPI_CHECK(MPI_Waitall(static_cast<int>(pending.size()), pending.data(), MPI_STATUSES_IGNORE));
  return asked;
}

}  // namespace

HaloPlan build_halo_plan(const Communicator& comm, const LocalNumbering& numbering) {
  static_assert(sizeof(index_t) == sizeof(int), "request lists travel as MPI_INT");
  const Requests requests = count_requests(comm, numbering);
  const auto asked = trade_requests(comm, requests);

  std::map<int, HaloNeighbour> by_rank;
  HaloPlan plan;
  std::string problem;
  for (const auto& [q, cells] : asked) {
    HaloNeighbour& nb = by_rank[q];
    nb.rank = q;
    nb.send_offset = static_cast<index_t>(plan.send_index.size());
    nb.send_count = static_cast<index_t>(cells.size());
    for (index_t g : cells) {
      const index_t local = numbering.to_local(g);
      if ((local < numbering.inner_count || local >= numbering.owned_count()) && problem.empty())
        problem = "halo plan: rank " + std::to_string(q) + " asks rank " + std::to_string(comm.rank()) + " for cell " +
                  std::to_string(g) + ", which is not one of its interface cells (inconsistent partitions)";
      plan.send_index.push_back(local);
    }
  }
  comm.check_collectively(problem.empty(), problem);
  for (index_t h = 0; h < numbering.halo_count; ++h) {
    HaloNeighbour& nb = by_rank[numbering.halo_owner[h]];
    if (nb.recv_count == 0) {
      nb.rank = numbering.halo_owner[h];
      nb.recv_offset = h;
    }
    ++nb.recv_count;
    plan.recv_index.push_back(numbering.owned_count() + h);
  }
  for (const auto& [q, nb] : by_rank) plan.neighbours.push_back(nb);
  return plan;
}

index_t halo_send_count(const Communicator& comm, const LocalNumbering& numbering) {
  const Requests requests = count_requests(comm, numbering);
  index_t sends = 0;
  for (int count : requests.asked_count) sends += count;
  return sends;
}

}  // namespace miniapp::parallel
