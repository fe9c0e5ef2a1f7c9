#include "parallel/halo_exchange.hpp"

#include <algorithm>
#include <string>

#include <mpi-ext.h>

#include "operators/kernels/gather.hpp"

namespace miniapp::parallel {
namespace {
constexpr int halo_tag = 2;

void check_transport(HaloTransport transport, const Executor& exec) {
  if (transport == HaloTransport::mpi) return;
  if (exec.backend() != Backend::cuda)
    throw Error("--comm " + std::string(name(transport)) + " moves device buffers: it needs the CUDA backend "
                "(the CPU backend uses --comm mpi)");
  if (transport == HaloTransport::mpi_cuda_aware && !mpi_is_cuda_aware())
    throw Error("--comm mpi-cuda-aware: this MPI library does not accept device pointers (MPIX_Query_cuda_support "
                "says no); use --comm mpi or nccl");
}

}  // namespace

HaloTransport parse_transport(std::string_view text) {
  for (HaloTransport t : {HaloTransport::mpi, HaloTransport::mpi_cuda_aware, HaloTransport::nccl})
    if (text == name(t)) return t;
  throw Error("--comm: unknown transport '" + std::string(text) + "' (expected mpi, mpi-cuda-aware or nccl)");
}

std::string_view name(HaloTransport transport) {
  switch (transport) {
    case HaloTransport::mpi: return "mpi";
    case HaloTransport::mpi_cuda_aware: return "mpi-cuda-aware";
    case HaloTransport::nccl: return "nccl";
  }
  return "?";
}

bool mpi_is_cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

HaloExchange::HaloExchange(const Communicator& comm, const Executor& exec, const LocalNumbering& numbering,
                           HaloTransport transport)
    : comm_(comm.duplicate()),
      exec_(exec),
      transport_(transport),
      plan_(build_halo_plan(comm_, numbering)),
      owned_count_(numbering.owned_count()),
      local_count_(numbering.local_count()),
      send_index_(Array<index_t>::from_host(exec, plan_.send_index)) {
  check_transport(transport, exec);
  if (transport == HaloTransport::nccl) nccl_ = std::make_unique<NcclChannel>(comm_, exec);
  reserve(1);
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

bool HaloExchange::staged() const { return transport_ == HaloTransport::mpi && exec_.backend() != Backend::cpu; }

// Buffers are vector-major: vector v's values for every neighbour at [v · count, (v + 1) · count).
// Nothing is unpacked: the halo is contiguous in arrival order (HaloPlan), so messages land in place.
void HaloExchange::reserve(int vectors) {
  if (vectors <= capacity_) return;
  capacity_ = vectors;
  send_buffer_ = Vector(exec_, vectors * send_index_.size());
  if (staged()) {
    host_send_.resize(static_cast<std::size_t>(send_buffer_.size()));
    host_recv_.resize(static_cast<std::size_t>(vectors * halo_count()));
  }
  requests_.reserve(2 * plan_.neighbours.size() * static_cast<std::size_t>(vectors));
}

std::size_t HaloExchange::device_bytes(index_t sends, int vectors) {
  return static_cast<std::size_t>(sends) *
         (sizeof(index_t) + sizeof(double) * static_cast<std::size_t>(std::max(vectors, 1)));
}

void HaloExchange::start_exchange(std::span<Vector* const> vectors) {
  if (!in_flight_.empty()) throw Error("HaloExchange::start_exchange: the previous exchange has not been finished");
  const int k = static_cast<int>(vectors.size());
  for (const Vector* v : vectors)
    if (v->size() != local_count_)
      throw Error("HaloExchange::start_exchange: vector of " + std::to_string(v->size()) +
                  " entries, the layout has " + std::to_string(local_count_) + " (owned + halo)");
  reserve(k);
  const index_t ns = send_index_.size();
  for (int v = 0; v < k; ++v) {
    Vector packed = send_buffer_.window(v * ns, ns);
    gather(exec_, send_index_, *vectors[v], packed);
  }
  for (Vector* v : vectors) in_flight_.push_back(v->data());
  if (nccl_) return nccl_->packed();  // posted in finish_exchange, after the overlapped work
  double* send = send_buffer_.data();
  if (staged()) {
    if (ns > 0) exec_.copy_to_host(host_send_.data(), send, sizeof(double) * k * ns);
    send = host_send_.data();
  } else {
    exec_.synchronize();  // MPI reads the packed device buffer: the gather must be done
  }
  requests_.clear();
  for (int v = 0; v < k; ++v)
    for (const HaloNeighbour& nb : plan_.neighbours) {
      double* recv = staged() ? host_recv_.data() + v * halo_count() : halo_of(in_flight_[v]);
      if (nb.recv_count > 0)
        MINIAPP_MPI_CHECK(MPI_Irecv(recv + nb.recv_offset, nb.recv_count, MPI_DOUBLE, nb.rank, halo_tag + v,
                                    comm_.get(), &requests_.emplace_back()));
      if (nb.send_count > 0)
        MINIAPP_MPI_CHECK(MPI_Isend(send + v * ns + nb.send_offset, nb.send_count, MPI_DOUBLE, nb.rank, halo_tag + v,
                                    comm_.get(), &requests_.emplace_back()));
    }
}

void HaloExchange::finish_exchange(std::span<Vector* const> vectors) {
  bool same = vectors.size() == in_flight_.size();
  for (std::size_t v = 0; same && v < vectors.size(); ++v) same = vectors[v]->data() == in_flight_[v];
  if (!same) throw Error("HaloExchange::finish_exchange: not the vectors given to start_exchange");
  const index_t nh = halo_count();
  if (nccl_) {
    halos_.clear();
    for (double* v : in_flight_) halos_.push_back(halo_of(v));
    nccl_->exchange(plan_, send_buffer_.data(), send_index_.size(), halos_);
  } else {
    MINIAPP_MPI_CHECK(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
  }
  if (staged() && nh > 0)
    for (std::size_t v = 0; v < vectors.size(); ++v)
      exec_.copy_from_host(halo_of(in_flight_[v]), host_recv_.data() + v * nh, sizeof(double) * nh);
  in_flight_.clear();
}

void HaloExchange::start_exchange(Vector& v) {
  Vector* one[] = {&v};
  start_exchange(one);
}

void HaloExchange::finish_exchange(Vector& v) {
  Vector* one[] = {&v};
  finish_exchange(one);
}

void HaloExchange::exchange(Vector& v) {
  start_exchange(v);
  finish_exchange(v);
}

}  // namespace miniapp::parallel
