#pragma once
#include <memory>
#include <optional>
#include <span>

#include "parallel/halo_exchange.hpp"

namespace miniapp::parallel {

// Sees every halo update and global reduction a Subdomain makes, whatever the transport: what the
// cost model counts in a step (miniapp/predict). Called on the rank's own thread.
class CommObserver {
 public:
  virtual ~CommObserver() = default;
  // A halo update of `vectors` vectors starts: per neighbour, one message per vector of
  // plan.neighbours[i].send_count cells out and recv_count in, `values_per_cell` values each (1 for a
  // cell vector; the systems of a range for the FFT path's frequency vectors).
  virtual void halo_started(const HaloPlan& plan, int vectors, index_t values_per_cell) = 0;
  // The update that started last has arrived and its values are unpacked.
  virtual void halo_finished() = 0;
  // An allreduce of `values` doubles or integers.
  virtual void reduced(int values) = 0;
};

// What the time loop needs to know about the other ranks (thesis §1.4-1.5, §2.4): which entries of a
// cell vector this rank owns, how to bring the halo up to date, and the global reductions. Cell
// vectors hold local_count() entries in the owned-then-halo layout of LocalNumbering (owned =
// inner, then interface); every kernel may run over all of them, but only owned entries count in a
// reduction and a halo is valid only after update_halo. A one-rank Subdomain makes every call a no-op
// (or a local reduction), so the same integrator code runs serial and distributed.
class Subdomain {
 public:
  // A single rank holding all `cells`: no halo, no communication.
  explicit Subdomain(index_t cells);
  // This rank's part of a partition (collective: builds the halo plan). With one rank it behaves like
  // Subdomain(cells).
  Subdomain(const Communicator& comm, const Executor& exec, const LocalNumbering& numbering,
            HaloTransport transport = HaloTransport::mpi);
  ~Subdomain();
  Subdomain(Subdomain&&) noexcept;
  Subdomain& operator=(Subdomain&&) noexcept;

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  bool distributed() const { return halo_ != nullptr; }
  index_t inner_count() const { return inner_; }  // rows whose stencil holds owned cells only
  index_t owned_count() const { return owned_; }
  index_t local_count() const { return local_; }
  // The communicator of a multi-rank run (nullptr for a single rank).
  const Communicator* communicator() const { return comm_ ? &*comm_ : nullptr; }

  // The owned entries of a local cell vector, as a window (no copy; read-only for a const vector).
  Vector owned(Vector& v) const { return v.window(0, owned_); }
  Vector owned(const Vector& v) const { return v.window(0, owned_); }

  // Brings the halo entries of every vector up to date (collective; one message per neighbour and
  // vector, all in flight at once).
  void update_halo(std::span<Vector* const> vectors);
  void update_halo(Vector& v);
  // The same split in two, for work that needs no halo in between (the inner rows of an SpMV).
  void start_halo_update(Vector& v);
  void finish_halo_update(Vector& v);
  // The most vectors one halo update of a run carries (the three velocity components), and the
  // executor bytes of the halo exchange's index list and buffers for them (0 on one rank).
  static constexpr int max_vectors_per_update = 3;
  std::size_t halo_device_bytes() const;
  // The owned cells this rank sends in an update of one vector (0 on one rank).
  index_t halo_send_count() const { return halo_ ? static_cast<index_t>(halo_->plan().send_index.size()) : 0; }

  // Σ over ranks of x·y over the owned entries (thesis §1.5.1): one local DOT, one allreduce.
  double dot(const Executor& exec, const Vector& x, const Vector& y) const;
  // out[i] = Σ over ranks of x[i]·y[i] over the owned entries: one local pass, one allreduce.
  void multi_dot(const Executor& exec, std::span<const Vector* const> x, std::span<const Vector* const> y,
                 std::span<double> out) const;

  // Every later halo update and reduction is reported to `observer` (nullptr: none); it must outlive
  // its use. A single rank communicates nothing and reports nothing.
  void observe(CommObserver* observer) { observer_ = observer; }
  CommObserver* observer() const { return observer_; }

  // Sums, minimum and maximum over ranks (collective; one MPI_Allreduce each, none for one rank).
  void sum(std::span<double> values) const;
  double sum(double value) const;
  long long sum(long long value) const;
  double min(double value) const;
  double max(double value) const;

 private:
  double reduce(double value, ReduceOp op) const;

  std::optional<Communicator> comm_;
  std::unique_ptr<HaloExchange> halo_;
  CommObserver* observer_ = nullptr;
  index_t inner_ = 0, owned_ = 0, local_ = 0;
  int rank_ = 0, ranks_ = 1;
};

}  // namespace miniapp::parallel
