#pragma once
#include <memory>
#include <vector>

#include "operators/backend/array.hpp"
#include "parallel/halo_exchange.hpp"

namespace miniapp::parallel {

// The halo update of block vectors: `block` values per cell, interleaved v[c · block + j], cells in
// the owned-then-halo layout of a LocalNumbering (the frequency vectors of the FFT path, solvers/fft:
// j is the frequency system). An update carries entries [begin, end) of every cell's block, all of
// them in one message per neighbour (thesis §4.5.3: the halos of every active frequency travel
// together, so the message count does not grow with the frequencies). Send and receive buffers are
// neighbour-major, then entry-major ([neighbour][j][cell]), so the entries [begin, end) of one
// neighbour are contiguous for any range: one gather (pack) and one scatter (unpack) per neighbour,
// the executor's own kernels, on the CPU and on CUDA alike. Not copyable (MPI requests point into
// the buffers).
class BlockHaloExchange {
 public:
  // Collective (builds the halo plan of `numbering`, see build_halo_plan). Uses a duplicate of
  // `comm`, so its messages never match anyone else's. Throws miniapp::Error for block < 1 or a
  // transport that cannot run here (as HaloExchange).
  BlockHaloExchange(const Communicator& comm, const Executor& exec, const LocalNumbering& numbering, index_t block,
                    HaloTransport transport = HaloTransport::mpi);
  BlockHaloExchange(const BlockHaloExchange&) = delete;
  BlockHaloExchange& operator=(const BlockHaloExchange&) = delete;
  ~BlockHaloExchange();

  // After the call, v[h · block + j] of every halo cell h and j in [begin, end) holds its owner's
  // value; other entries are untouched. v has local_count · block entries on the executor;
  // 0 ≤ begin ≤ end ≤ block. Collective over the neighbours (every rank passes the same range).
  void exchange(Vector& v, index_t begin, index_t end);
  // The same split in two, for work that reads no halo in between (the inner rows of an SpMV): every
  // start is followed by the finish of the same vector and range before another start.
  void start_exchange(Vector& v, index_t begin, index_t end);
  void finish_exchange(Vector& v, index_t begin, index_t end);

  const HaloPlan& plan() const { return plan_; }
  index_t block() const { return block_; }
  // Executor bytes of an exchange of `block` values per cell that sends `sends` cells and receives
  // `recvs` (parallel::halo_send_count, the numbering's halo_count): index lists and buffers of both.
  static std::size_t device_bytes(index_t sends, index_t recvs, index_t block);

 private:
  struct Segment {
    index_t at, count;
  };
  bool staged() const;  // transport mpi with buffers on a device: MPI sees host copies
  Segment send_segment(const HaloNeighbour& nb, index_t begin, index_t end) const;
  Segment recv_segment(const HaloNeighbour& nb, index_t begin, index_t end) const;
  void post(index_t begin, index_t end);
  void finish(index_t begin, index_t end);

  Communicator comm_;
  Executor exec_;
  HaloTransport transport_;
  HaloPlan plan_;
  index_t block_, local_entries_;
  std::unique_ptr<NcclChannel> nccl_;
  Array<index_t> send_index_, recv_index_;  // buffer position → entry of v, [neighbour][j][cell]
  Vector send_buffer_, recv_buffer_;
  std::vector<double> host_send_, host_recv_;
  std::vector<MPI_Request> requests_;
};

}  // namespace miniapp::parallel
