#pragma once
#include "operators/backend/device_matrix.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "parallel/subdomain.hpp"

namespace miniapp::parallel {

// Rows [begin, end) of `a`, all its columns: a CsrMatrix of end − begin rows.
CsrMatrix row_block(const CsrMatrix& a, index_t begin, index_t end);

// Executor bytes of rows [0, end) of `a` stored split at `inner` as two sELL matrices, rows [0, inner)
// and [inner, end) (OverlappedOperator's inner and interface rows, amg::RankOperator's blocks), from the
// row lengths alone.
std::size_t split_rows_device_bytes(const CsrMatrix& a, index_t inner, index_t end, index_t slice_height,
                                    bool float_values);

// A square operator on this rank's cells (rows and columns in the owned-then-halo layout) stored
// split by rows for the overlapped SpMV of thesis §2.4: the inner rows [0, inner_count) read owned
// entries only, so they are multiplied while the halo of x travels; the interface rows [inner_count,
// owned_count) follow once it has arrived. Halo rows are not stored: y's halo entries are left as
// they were (a vector's halo is valid only after Subdomain::update_halo anyway).
class OverlappedOperator {
 public:
  // `local`: local_count() × local_count() (rows of the halo ignored), host CSR.
  OverlappedOperator(const Executor& exec, const CsrMatrix& local, const Subdomain& domain, index_t slice_height);

  // y = A x on the owned rows, overlapped: starts x's halo update, multiplies the inner rows, finishes
  // the update, multiplies the interface rows. x's halo is up to date afterwards. Collective.
  void apply(Subdomain& domain, Vector& x, Vector& y) const;
  // The same without overlap (the halo update first, then both parts), for comparison.
  void apply_after_update(Subdomain& domain, Vector& x, Vector& y) const;
  // Both parts on x's halo as it is, no communication: the computation alone (benchmarks).
  void apply_local(const Vector& x, Vector& y) const;

  index_t local_count() const { return local_; }
  const DeviceSell& inner() const { return inner_; }
  const DeviceSell& interface() const { return interface_; }

 private:
  void multiply(const DeviceSell& part, index_t first_row, const Vector& x, Vector& y) const;

  Executor exec_;
  index_t local_;
  DeviceSell inner_, interface_;
};

}  // namespace miniapp::parallel
