// Halo updates of block vectors (one message per neighbour for a range of every cell's block).
#include "parallel/block_halo_exchange.hpp"

#include <string>

#include "operators/kernels/gather.hpp"

namespace miniapp::parallel {
namespace {

constexpr int block_halo_tag = 3;

// Position of value j of each listed cell in a [neighbour][j][cell] buffer: the index lists of the
// plan (send_index or recv_index, cut by the offsets and counts of each neighbour) blown up by `block`.
std::vector<index_t> block_index(const HaloPlan& plan, const std::vector<index_t>& cells, index_t block, bool send) {
  std::vector<index_t> index;
  index.reserve(cells.size() * static_cast<std::size_t>(block));
  for (const HaloNeighbour& nb : plan.neighbours) {
    const index_t offset = send ? nb.send_offset : nb.recv_offset, count = send ? nb.send_count : nb.recv_count;
    for (index_t j = 0; j < block; ++j)
      for (index_t i = 0; i < count; ++i) index.push_back(cells[static_cast<std::size_t>(offset + i)] * block + j);
  }
  return index;
}

}  // namespace

BlockHaloExchange::BlockHaloExchange(const Communicator& comm, const Executor& exec, const LocalNumbering& numbering,
                                     index_t block, HaloTransport transport)
    : comm_(comm.duplicate()), exec_(exec), transport_(transport), plan_(build_halo_plan(comm_, numbering)),
      block_(block) {
  if (block < 1) throw Error("BlockHaloExchange: block of " + std::to_string(block) + " values per cell; at least 1");
  local_entries_ = checked_index(static_cast<std::size_t>(numbering.local_count()) * static_cast<std::size_t>(block),
                                 "block halo vectors");
  if (transport != HaloTransport::mpi && exec.backend() != Backend::cuda)
    throw Error("--comm " + std::string(name(transport)) + " moves device buffers: it needs the CUDA backend");
  if (transport == HaloTransport::mpi_cuda_aware && !mpi_is_cuda_aware())
    throw Error("--comm mpi-cuda-aware: this MPI library does not accept device pointers; use --comm mpi or nccl");
  if (transport == HaloTransport::nccl) nccl_ = std::make_unique<NcclChannel>(comm_, exec);
  send_index_ = Array<index_t>::from_host(exec, block_index(plan_, plan_.send_index, block, true));
  recv_index_ = Array<index_t>::from_host(exec, block_index(plan_, plan_.recv_index, block, false));
  send_buffer_ = Vector(exec, send_index_.size());
  recv_buffer_ = Vector(exec, recv_index_.size());
  if (staged()) {
    host_send_.resize(static_cast<std::size_t>(send_index_.size()));
    host_recv_.resize(static_cast<std::size_t>(recv_index_.size()));
  }
  requests_.reserve(2 * plan_.neighbours.size());
}

std::size_t BlockHaloExchange::device_bytes(index_t sends, index_t recvs, index_t block) {
  return (static_cast<std::size_t>(sends) + static_cast<std::size_t>(recvs)) * static_cast<std::size_t>(block) *
         (sizeof(index_t) + sizeof(double));
}

BlockHaloExchange::~BlockHaloExchange() {
  // Only on an error path between post and finish: cancelled rather than waited on (as HaloExchange).
  for (MPI_Request& r : requests_) {
    if (r == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&r);
    MPI_Request_free(&r);
  }
}

bool BlockHaloExchange::staged() const {
  return transport_ == HaloTransport::mpi && exec_.backend() != Backend::cpu;
}

void BlockHaloExchange::exchange(Vector& v, index_t begin, index_t end) {
  start_exchange(v, begin, end);
  finish_exchange(v, begin, end);
}

void BlockHaloExchange::start_exchange(Vector& v, index_t begin, index_t end) {
  if (begin < 0 || end < begin || end > block_)
    throw Error("BlockHaloExchange::exchange: range [" + std::to_string(begin) + ", " + std::to_string(end) +
                ") is outside a block of " + std::to_string(block_));
  if (v.size() != local_entries_)
    throw Error("BlockHaloExchange::exchange: vector of " + std::to_string(v.size()) + " entries, the layout has " +
                std::to_string(local_entries_) + " (owned + halo cells × block)");
  if (begin == end) return;
  for (const HaloNeighbour& nb : plan_.neighbours) {
    const Segment out = send_segment(nb, begin, end);
    Vector packed = send_buffer_.window(out.at, out.count);
    gather(exec_, send_index_.window(out.at, out.count), v, packed);
  }
  post(begin, end);
}

void BlockHaloExchange::finish_exchange(Vector& v, index_t begin, index_t end) {
  if (begin == end) return;
  finish(begin, end);
  for (const HaloNeighbour& nb : plan_.neighbours) {
    const Segment in = recv_segment(nb, begin, end);
    scatter(exec_, recv_index_.window(in.at, in.count), recv_buffer_.window(in.at, in.count), v);
  }
}

// Entries [begin, end) of the neighbour's cells in the [neighbour][j][cell] buffers.
BlockHaloExchange::Segment BlockHaloExchange::send_segment(const HaloNeighbour& nb, index_t begin, index_t end) const {
  return {nb.send_offset * block_ + begin * nb.send_count, (end - begin) * nb.send_count};
}

BlockHaloExchange::Segment BlockHaloExchange::recv_segment(const HaloNeighbour& nb, index_t begin, index_t end) const {
  return {nb.recv_offset * block_ + begin * nb.recv_count, (end - begin) * nb.recv_count};
}

// One receive and one send per neighbour, each of the neighbour's contiguous [begin, end) segment.
void BlockHaloExchange::post(index_t begin, index_t end) {
  if (nccl_) {
    HaloPlan range;  // the same neighbours, offsets and counts in buffer entries
    for (const HaloNeighbour& nb : plan_.neighbours) {
      const Segment out = send_segment(nb, begin, end), in = recv_segment(nb, begin, end);
      range.neighbours.push_back({nb.rank, out.at, out.count, in.at, in.count});
    }
    nccl_->packed();
    double* const recv[] = {recv_buffer_.data()};
    return nccl_->exchange(range, send_buffer_.data(), 0, recv);
  }
  double* send = send_buffer_.data();
  double* recv = recv_buffer_.data();
  if (staged()) {
    for (const HaloNeighbour& nb : plan_.neighbours)
      if (const Segment out = send_segment(nb, begin, end); out.count > 0)
        exec_.copy_to_host(host_send_.data() + out.at, send + out.at, sizeof(double) * out.count);
    send = host_send_.data();
    recv = host_recv_.data();
  } else {
    exec_.synchronize();  // MPI reads the packed device buffer: the gathers must be done
  }
  requests_.clear();
  for (const HaloNeighbour& nb : plan_.neighbours) {
    const Segment out = send_segment(nb, begin, end), in = recv_segment(nb, begin, end);
    if (in.count > 0)
      MINIAPP_MPI_CHECK(MPI_Irecv(recv + in.at, in.count, MPI_DOUBLE, nb.rank, block_halo_tag, comm_.get(),
                                  &requests_.emplace_back()));
    if (out.count > 0)
      MINIAPP_MPI_CHECK(MPI_Isend(send + out.at, out.count, MPI_DOUBLE, nb.rank, block_halo_tag, comm_.get(),
                                  &requests_.emplace_back()));
  }
}

void BlockHaloExchange::finish(index_t begin, index_t end) {
  if (nccl_) return;  // the compute stream already waits on the arrival (NcclChannel::exchange)
  MINIAPP_MPI_CHECK(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
  requests_.clear();
  if (!staged()) return;
  for (const HaloNeighbour& nb : plan_.neighbours)
    if (const Segment in = recv_segment(nb, begin, end); in.count > 0)
      exec_.copy_from_host(recv_buffer_.data() + in.at, host_recv_.data() + in.at, sizeof(double) * in.count);
}

}  // namespace miniapp::parallel
