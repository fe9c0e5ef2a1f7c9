#include "parallel/halo_exchange.hpp"

#include <string>

#include "operators/kernels/gather.hpp"

namespace miniapp::parallel {
namespace {
constexpr int halo_tag = 2;
}  // namespace

HaloExchange::HaloExchange(const Communicator& comm, const Executor& exec, const LocalNumbering& numbering,
                           HaloTransport transport)
    : comm_(comm.duplicate()),
      exec_(exec),
      plan_(build_halo_plan(comm_, numbering)),
      local_count_(numbering.local_count()),
      send_index_(Array<index_t>::from_host(exec, plan_.send_index)),
      recv_index_(Array<index_t>::from_host(exec, plan_.recv_index)),
      send_buffer_(exec, send_index_.size()),
      recv_buffer_(exec, recv_index_.size()) {
  if (transport != HaloTransport::mpi)
    throw Error("HaloExchange: transport " + std::to_string(static_cast<int>(transport)) + " is not implemented");
  if (staged()) {
    host_send_.resize(static_cast<std::size_t>(send_buffer_.size()));
    host_recv_.resize(static_cast<std::size_t>(recv_buffer_.size()));
  }
  requests_.reserve(2 * plan_.neighbours.size());
}

HaloExchange::~HaloExchange() {
  // Only on an error path (an exception between start and finish): cancelled rather than waited on,
  // since the peer may have stopped too; check_collectively has then told every rank already.
  for (MPI_Request& r : requests_) {
    if (r == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&r);
    MPI_Request_free(&r);
  }
}

bool HaloExchange::staged() const { return exec_.backend() != Backend::cpu; }

void HaloExchange::start_exchange(const Vector& v) {
  if (in_flight_) throw Error("HaloExchange::start_exchange: the previous exchange has not been finished");
  if (v.size() != local_count_)
    throw Error("HaloExchange::start_exchange: vector of " + std::to_string(v.size()) + " entries, the layout has " +
                std::to_string(local_count_) + " (owned + halo)");
  gather(exec_, send_index_, v, send_buffer_);
  double* send = send_buffer_.data();
  double* recv = recv_buffer_.data();
  if (staged()) {
    if (!host_send_.empty()) exec_.copy_to_host(host_send_.data(), send, sizeof(double) * host_send_.size());
    send = host_send_.data();
    recv = host_recv_.data();
  }
  requests_.clear();
  for (const HaloNeighbour& nb : plan_.neighbours) {
    if (nb.recv_count > 0)
      MINIAPP_MPI_CHECK(MPI_Irecv(recv + nb.recv_offset, nb.recv_count, MPI_DOUBLE, nb.rank, halo_tag, comm_.get(),
                                  &requests_.emplace_back()));
    if (nb.send_count > 0)
      MINIAPP_MPI_CHECK(MPI_Isend(send + nb.send_offset, nb.send_count, MPI_DOUBLE, nb.rank, halo_tag, comm_.get(),
                                  &requests_.emplace_back()));
  }
  in_flight_ = &v;
}

void HaloExchange::finish_exchange(Vector& v) {
  if (in_flight_ != &v) throw Error("HaloExchange::finish_exchange: not the vector given to start_exchange");
  MINIAPP_MPI_CHECK(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
  in_flight_ = nullptr;
  if (staged() && !host_recv_.empty())
    exec_.copy_from_host(recv_buffer_.data(), host_recv_.data(), sizeof(double) * host_recv_.size());
  scatter(exec_, recv_index_, recv_buffer_, v);
}

void HaloExchange::exchange(Vector& v) {
  start_exchange(v);
  finish_exchange(v);
}

}  // namespace miniapp::parallel
