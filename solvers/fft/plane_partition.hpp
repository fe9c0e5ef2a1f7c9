#pragma once
#include <span>

#include "parallel/block_halo_exchange.hpp"
#include "parallel/subdomain.hpp"
#include "solvers/fft/batched_kernels.hpp"
#include "solvers/fft/extrusion.hpp"

namespace miniapp::fft {

// The numbering of the 2D cells (periodic lines) a rank holds when the mesh was partitioned by whole
// lines (parallel::partition_lines) and the rank's mesh, owned cells then halo cells in the order of
// `cells`, is the extrusion `local` (fft::detect_extrusion of that mesh). A line is inner,
// interface or halo as its cells are; its global index is the least global index of its cells (the
// same on every rank that holds it). `local` numbers its 2D cells in the order of their bottom cells,
// so owned lines come first, inner before interface: the owned-then-halo layout that the frequency
// vectors [c · S + s] then inherit. Throws miniapp::Error when a line is split (its cells of
// different kinds or owners: the mesh was not partitioned by lines) or the order is not that layout.
parallel::LocalNumbering plane_numbering(const Extrusion& local, const parallel::LocalNumbering& cells);

// What the batched frequency PCG needs of the other ranks on a P × 1 partition (thesis §4.5.3): the
// rows (2D cells) it owns, the halo update of frequency vectors with every system of a range in one
// message per neighbour, and the global sums of its column dots. Collective to construct.
class PlanePartition {
 public:
  // `planes`: plane_numbering of this rank; `systems`: the entries per 2D cell of the vectors (the
  // solver's row stride, ShiftedSystems). `reports_to`: the rank's cell Subdomain, whose observer
  // (when it has one at the time of a call) sees these halo updates and sums as it sees its own: the
  // time loop's communication, counted by miniapp predict. It must outlive this partition.
  PlanePartition(const parallel::Communicator& comm, const Executor& exec, const parallel::LocalNumbering& planes,
                 index_t systems, parallel::HaloTransport transport = parallel::HaloTransport::mpi,
                 const parallel::Subdomain* reports_to = nullptr);

  index_t owned_rows() const { return owned_; }
  // The owned rows whose entries reference no halo row: [0, inner_rows()).
  index_t inner_rows() const { return inner_; }
  index_t local_rows() const { return local_; }
  index_t global_rows() const { return global_; }
  const parallel::Communicator& communicator() const { return comm_; }

  // The halo rows of v (local_rows() · stride entries, [c · stride + s]) for the systems of `range`
  // get their owners' values: one message per neighbour (collective over the neighbours).
  void update_halo(Vector& v, SystemRange range);
  // The same split in two, for work on the inner rows in between (a start, then its finish).
  void start_halo_update(Vector& v, SystemRange range);
  void finish_halo_update(Vector& v, SystemRange range);
  // values[i] = Σ over ranks of values[i] (collective, one allreduce).
  void sum(std::span<double> values) const;
  double max(double value) const;
  // True on every rank when `value` is true on every rank (collective).
  bool all(bool value) const;

 private:
  parallel::CommObserver* observer() const { return reports_to_ ? reports_to_->observer() : nullptr; }

  parallel::Communicator comm_;
  parallel::BlockHaloExchange halo_;
  index_t inner_, owned_, local_, global_;
  const parallel::Subdomain* reports_to_;
};

}  // namespace miniapp::fft
