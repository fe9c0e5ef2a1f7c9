#include "solvers/amg/rank_coarsening.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <unordered_map>

#include "solvers/amg/galerkin.hpp"
#include "solvers/amg/prolongation.hpp"
#include "solvers/amg/rank_spectral_bound.hpp"

namespace miniapp::amg {
namespace {

// The global coarse indices this rank's P and its share of R A P touch, each with a local number: the
// owned aggregates first, in order, then the others as they are met.
class ColumnSpace {
 public:
  index_t add(index_t global) {
    const auto [it, added] = local_.try_emplace(global, static_cast<index_t>(global_.size()));
    if (added) global_.push_back(global);
    return it->second;
  }
  index_t size() const { return static_cast<index_t>(global_.size()); }
  const std::vector<index_t>& global() const { return global_; }

 private:
  std::vector<index_t> global_;
  std::unordered_map<index_t, index_t> local_;
};

int owner_of(const std::vector<index_t>& offsets, index_t global) {
  return static_cast<int>(std::upper_bound(offsets.begin(), offsets.end() - 1, global) - offsets.begin()) - 1;
}

// The global aggregate of every local fine entry: the owned ones' from `aggregates`, the halo's from
// their owners.
std::vector<index_t> coarse_ids(HostHalo& halo, const Aggregates& aggregates, index_t offset, index_t local_count) {
  std::vector<double> id(static_cast<std::size_t>(local_count), 0.0);
  for (std::size_t i = 0; i < aggregates.of_row.size(); ++i) id[i] = offset + aggregates.of_row[i];
  halo.update(id);  // exact: indices far below 2^53
  return {id.begin(), id.end()};
}

// P's owned rows, its columns numbered in `columns`: T smoothed by one damped-Jacobi step on the
// filtered matrix, ω = 4 / (3 λmax) with λmax of the whole (every rank's) D_F⁻¹ A_F.
CsrMatrix owned_prolongation(const parallel::Communicator& comm, HostHalo& halo, const CsrMatrix& a,
                             const std::vector<double>& d, double threshold, const std::vector<index_t>& coarse_of,
                             ColumnSpace& columns) {
  Aggregates tentative;
  for (index_t g : coarse_of) tentative.of_row.push_back(columns.add(g));
  tentative.count = columns.size();
  const CsrMatrix f = filtered_matrix(a, d, threshold);
  std::vector<double> fd = row_diagonal(f);
  fd.resize(d.size());
  halo.update(fd);
  return jacobi_smoothed_prolongation(f, fd, 4.0 / (3.0 * rank_largest_eigenvalue_bound(comm, halo, f, fd)),
                                      tentative);
}

// P's rows at every local fine entry: the owned ones, then the halo's, fetched from their owners (each
// sends the rows of the interface entries the halo plan says a neighbour holds).
CsrMatrix local_prolongation(const parallel::Communicator& comm, const parallel::HaloPlan& plan,
                             const parallel::LocalNumbering& n, const CsrMatrix& p, ColumnSpace& columns) {
  std::vector<GlobalRows> outgoing(static_cast<std::size_t>(comm.size()));
  for (const parallel::HaloNeighbour& nb : plan.neighbours)
    for (index_t k = nb.send_offset; k < nb.send_offset + nb.send_count; ++k) {
      const index_t local = plan.send_index[k];
      outgoing[nb.rank].append(n.local_to_global[local], p, local, columns.global());
    }
  const std::vector<GlobalRows> incoming = exchange_rows(comm, outgoing);
  std::vector<Triplet> t;
  for (index_t i = 0; i < p.rows; ++i)
    for (index_t k = p.row_ptr[i]; k < p.row_ptr[i + 1]; ++k) t.push_back({i, p.col[k], p.val[k]});
  bool in_halo = true;
  for (const GlobalRows& rows : incoming)
    for (index_t r = 0; r < rows.count(); ++r) {
      const index_t i = n.to_local(rows.id[r]);
      in_halo = in_halo && i >= n.owned_count();
      for (index_t k = rows.ptr[r]; k < rows.ptr[r + 1] && in_halo; ++k)
        t.push_back({i, columns.add(rows.col[k]), rows.val[k]});
    }
  comm.check_collectively(in_halo, "AMG: a rank received a row of P for an entry outside its halo "
                                   "(inconsistent numberings)");
  return csr_from_triplets(n.local_count(), columns.size(), std::move(t));
}

// The owned coarse rows of R A P (rows in aggregate order, global columns): this rank's share
// Pᵀ (A P) over its owned fine rows, plus the shares of the other ranks whose P reaches its aggregates.
CsrMatrix galerkin_rows(const parallel::Communicator& comm, const std::vector<index_t>& offsets, const CsrMatrix& a,
                        CsrMatrix p, const CsrMatrix& local_p, const ColumnSpace& columns) {
  p.cols = columns.size();
  const CsrMatrix share = sparse_product(transpose(p), sparse_product(a, local_p));
  const index_t own = offsets[comm.rank()], count = offsets[comm.rank() + 1] - own;
  const std::vector<index_t>& global = columns.global();
  std::vector<GlobalRows> outgoing(static_cast<std::size_t>(comm.size()));
  std::vector<Triplet> t;
  for (index_t r = 0; r < share.rows; ++r) {
    if (r >= count) {  // the owned aggregates are the first columns
      outgoing[owner_of(offsets, global[r])].append(global[r], share, r, global);
      continue;
    }
    for (index_t k = share.row_ptr[r]; k < share.row_ptr[r + 1]; ++k) t.push_back({r, global[share.col[k]], share.val[k]});
  }
  bool owned = true;
  for (const GlobalRows& rows : exchange_rows(comm, outgoing))
    for (index_t r = 0; r < rows.count(); ++r) {
      owned = owned && rows.id[r] >= own && rows.id[r] < own + count;
      for (index_t k = rows.ptr[r]; k < rows.ptr[r + 1] && owned; ++k)
        t.push_back({rows.id[r] - own, rows.col[k], rows.val[k]});
    }
  comm.check_collectively(owned, "AMG: a rank received a coarse row it does not own (inconsistent numberings)");
  return csr_from_triplets(count, offsets.back(), std::move(t));
}

// The coarse level's entries: owned aggregates whose rows read owned entries only (inner), then the
// others (interface), then the halo: the other ranks' columns of those rows and of P, by global index
// (so by owner).
parallel::LocalNumbering coarse_numbering(int rank, const std::vector<index_t>& offsets, const CsrMatrix& rows,
                                          const std::vector<index_t>& p_columns) {
  const index_t own = offsets[rank];
  const auto remote = [&](index_t g) { return g < own || g >= own + rows.rows; };
  std::vector<index_t> inner, interface, halo;
  for (index_t r = 0; r < rows.rows; ++r) {
    const auto first = rows.col.begin() + rows.row_ptr[r], last = rows.col.begin() + rows.row_ptr[r + 1];
    (std::any_of(first, last, remote) ? interface : inner).push_back(own + r);
    std::copy_if(first, last, std::back_inserter(halo), remote);
  }
  std::copy_if(p_columns.begin(), p_columns.end(), std::back_inserter(halo), remote);
  std::sort(halo.begin(), halo.end());
  halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
  parallel::LocalNumbering n;
  n.rank = rank;
  n.inner_count = static_cast<index_t>(inner.size());
  n.interface_count = static_cast<index_t>(interface.size());
  n.halo_count = static_cast<index_t>(halo.size());
  for (const auto* part : {&inner, &interface, &halo})
    n.local_to_global.insert(n.local_to_global.end(), part->begin(), part->end());
  for (index_t g : halo) n.halo_owner.push_back(owner_of(offsets, g));
  for (index_t l = 0; l < n.local_count(); ++l) n.global_to_local.emplace(n.local_to_global[l], l);
  return n;
}

}  // namespace

CsrMatrix owned_block(const CsrMatrix& owned_rows) {
  std::vector<Triplet> t;
  for (index_t i = 0; i < owned_rows.rows; ++i)
    for (index_t k = owned_rows.row_ptr[i]; k < owned_rows.row_ptr[i + 1]; ++k)
      if (owned_rows.col[k] < owned_rows.rows) t.push_back({i, owned_rows.col[k], owned_rows.val[k]});
  return csr_from_triplets(owned_rows.rows, owned_rows.rows, std::move(t));
}

std::vector<index_t> rank_offsets(const parallel::Communicator& comm, index_t count) {
  std::vector<index_t> offsets(static_cast<std::size_t>(comm.size()) + 1, 0);
  MINIAPP_MPI_CHECK(MPI_Allgather(&count, 1, MPI_INT, offsets.data() + 1, 1, MPI_INT, comm.get()));
  for (std::size_t q = 1; q < offsets.size(); ++q) offsets[q] += offsets[q - 1];
  return offsets;
}

RankCoarsening coarsen_on_ranks(const parallel::Communicator& comm, HostHalo& halo, const RankMatrix& fine,
                                const std::vector<double>& d, double threshold, const Aggregates& aggregates) {
  const parallel::LocalNumbering& n = fine.numbering;
  const std::vector<index_t> offsets = rank_offsets(comm, aggregates.count);
  const index_t own = offsets[comm.rank()];
  ColumnSpace columns;
  for (index_t c = 0; c < aggregates.count; ++c) columns.add(own + c);
  const std::vector<index_t> coarse_of = coarse_ids(halo, aggregates, own, n.local_count());
  const CsrMatrix p = owned_prolongation(comm, halo, fine.a, d, threshold, coarse_of, columns);
  const CsrMatrix local_p = local_prolongation(comm, halo.plan(), n, p, columns);
  const CsrMatrix rows = galerkin_rows(comm, offsets, fine.a, p, local_p, columns);

  RankCoarsening result;
  parallel::LocalNumbering& cn = result.coarse.numbering = coarse_numbering(comm.rank(), offsets, rows, columns.global());
  std::vector<Triplet> a, pt, rt;
  for (index_t i = 0; i < cn.owned_count(); ++i) {
    const index_t r = cn.local_to_global[i] - own;
    for (index_t k = rows.row_ptr[r]; k < rows.row_ptr[r + 1]; ++k) a.push_back({i, cn.to_local(rows.col[k]), rows.val[k]});
  }
  for (index_t i = 0; i < local_p.rows; ++i)
    for (index_t k = local_p.row_ptr[i]; k < local_p.row_ptr[i + 1]; ++k) {
      const index_t c = cn.to_local(columns.global()[local_p.col[k]]);
      if (i < n.owned_count()) pt.push_back({i, c, local_p.val[k]});
      if (c >= 0 && c < cn.owned_count()) rt.push_back({c, i, local_p.val[k]});
    }
  result.coarse.a = csr_from_triplets(cn.owned_count(), cn.local_count(), std::move(a));
  result.prolongation = csr_from_triplets(n.owned_count(), cn.local_count(), std::move(pt));
  result.restriction = csr_from_triplets(cn.owned_count(), n.local_count(), std::move(rt));
  return result;
}

}  // namespace miniapp::amg
