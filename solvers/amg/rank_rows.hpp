#pragma once
#include <vector>

#include "operators/sparse/csr_matrix.hpp"
#include "parallel/communicator.hpp"
#include "parallel/halo_exchange.hpp"

namespace miniapp::amg {

// Sparse rows named by global indices (row and columns), as they travel between ranks while the
// hierarchy of several ranks is set up: rows of P that a neighbour needs, a rank's contributions to
// coarse rows that another rank owns, the coarsest matrix gathered everywhere.
struct GlobalRows {
  std::vector<index_t> id;       // global index of each row
  std::vector<index_t> ptr{0};   // row k holds entries [ptr[k], ptr[k + 1])
  std::vector<index_t> col;      // global columns
  std::vector<double> val;

  index_t count() const { return static_cast<index_t>(id.size()); }
  // Appends row `id` with the entries of row r of `a`, its columns renamed by column_id.
  void append(index_t row_id, const CsrMatrix& a, index_t r, const std::vector<index_t>& column_id);
};

// Sends outgoing[q] to rank q, for every rank q (collective; one all-to-all of counts, then of the
// rows): returns what each rank sent to this one, indexed by the sending rank.
std::vector<GlobalRows> exchange_rows(const parallel::Communicator& comm, const std::vector<GlobalRows>& outgoing);

// The halo update of one level's host vectors at set-up, through the halo exchange of the time loop
// on the CPU executor. Collective to make and to use.
class HostHalo {
 public:
  HostHalo(const parallel::Communicator& comm, const parallel::LocalNumbering& numbering);
  // v's halo entries ← their owners' values; v has the level's local length.
  void update(std::vector<double>& v);
  const parallel::HaloPlan& plan() const { return exchange_.plan(); }

 private:
  Executor exec_;
  parallel::HaloExchange exchange_;
};

}  // namespace miniapp::amg
