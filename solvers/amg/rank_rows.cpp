#include "solvers/amg/rank_rows.hpp"

#include <numeric>

namespace miniapp::amg {

void GlobalRows::append(index_t row_id, const CsrMatrix& a, index_t r, const std::vector<index_t>& column_id) {
  id.push_back(row_id);
  for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
    col.push_back(column_id[a.col[k]]);
    val.push_back(a.val[k]);
  }
  ptr.push_back(static_cast<index_t>(col.size()));
}

namespace {

// One MPI_Alltoallv of the pieces part(outgoing[q]) of every rank q, into part(incoming[q]) sized by
// counts[q].
template <class T, class Part>
void all_to_all(const parallel::Communicator& comm, const std::vector<GlobalRows>& outgoing,
                std::vector<GlobalRows>& incoming, const std::vector<int>& counts, MPI_Datatype type, Part part) {
  const auto n = static_cast<std::size_t>(comm.size());
  std::vector<int> send_count(n), send_offset(n + 1, 0), recv_offset(n + 1, 0);
  std::vector<T> sent, received;
  for (std::size_t q = 0; q < n; ++q) {
    const auto& piece = part(outgoing[q]);
    sent.insert(sent.end(), piece.begin(), piece.end());
    send_count[q] = static_cast<int>(piece.size());
    send_offset[q + 1] = send_offset[q] + send_count[q];
  }
  std::partial_sum(counts.begin(), counts.end(), recv_offset.begin() + 1);
  received.resize(static_cast<std::size_t>(recv_offset[n]));
  MINIAPP_MPI_CHECK(MPI_Alltoallv(sent.data(), send_count.data(), send_offset.data(), type, received.data(),
                                  counts.data(), recv_offset.data(), type, comm.get()));
  for (std::size_t q = 0; q < n; ++q)
    part(incoming[q]).assign(received.begin() + recv_offset[q], received.begin() + recv_offset[q + 1]);
}

}  // namespace

std::vector<GlobalRows> exchange_rows(const parallel::Communicator& comm, const std::vector<GlobalRows>& outgoing) {
  static_assert(sizeof(index_t) == sizeof(int), "indices travel as MPI_INT");
  const auto n = static_cast<std::size_t>(comm.size());
  std::vector<int> sizes(2 * n), arriving(2 * n);  // per rank: rows, entries
  for (std::size_t q = 0; q < n; ++q) {
    sizes[2 * q] = outgoing[q].count();
    sizes[2 * q + 1] = static_cast<int>(outgoing[q].col.size());
  }
  MINIAPP_MPI_CHECK(MPI_Alltoall(sizes.data(), 2, MPI_INT, arriving.data(), 2, MPI_INT, comm.get()));
  std::vector<int> rows(n), lengths(n), entries(n);
  for (std::size_t q = 0; q < n; ++q) {
    rows[q] = arriving[2 * q];
    lengths[q] = rows[q] + 1;
    entries[q] = arriving[2 * q + 1];
  }
  std::vector<GlobalRows> incoming(n);
  all_to_all<index_t>(comm, outgoing, incoming, rows, MPI_INT, [](auto& r) -> auto& { return r.id; });
  all_to_all<index_t>(comm, outgoing, incoming, lengths, MPI_INT, [](auto& r) -> auto& { return r.ptr; });
  all_to_all<index_t>(comm, outgoing, incoming, entries, MPI_INT, [](auto& r) -> auto& { return r.col; });
  all_to_all<double>(comm, outgoing, incoming, entries, MPI_DOUBLE, [](auto& r) -> auto& { return r.val; });
  return incoming;
}

HostHalo::HostHalo(const parallel::Communicator& comm, const parallel::LocalNumbering& numbering)
    : exec_(Executor::cpu()), exchange_(comm, exec_, numbering) {}

void HostHalo::update(std::vector<double>& v) {
  Vector values = Vector::from_host(exec_, v);
  exchange_.exchange(values);
  v = values.to_host();
}

}  // namespace miniapp::amg
