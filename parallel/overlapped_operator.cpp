#include "parallel/overlapped_operator.hpp"

#include <span>
#include <string>
#include <vector>

#include "operators/kernels/spmv.hpp"
#include "operators/sparse/sell_matrix.hpp"

namespace miniapp::parallel {

CsrMatrix row_block(const CsrMatrix& a, index_t begin, index_t end) {
  if (begin < 0 || begin > end || end > a.rows)
    throw Error("row_block: rows [" + std::to_string(begin) + ", " + std::to_string(end) + ") of a matrix with " +
                std::to_string(a.rows) + " rows");
  CsrMatrix b;
  b.rows = end - begin;
  b.cols = a.cols;
  const index_t first = a.row_ptr[begin];
  for (index_t r = begin; r < end; ++r) b.row_ptr.push_back(a.row_ptr[r + 1] - first);
  b.col.assign(a.col.begin() + first, a.col.begin() + a.row_ptr[end]);
  b.val.assign(a.val.begin() + first, a.val.begin() + a.row_ptr[end]);
  return b;
}

std::size_t split_rows_device_bytes(const CsrMatrix& a, index_t inner, index_t end, index_t slice_height,
                                    bool float_values) {
  std::vector<index_t> lengths(static_cast<std::size_t>(end));
  for (index_t r = 0; r < end; ++r) lengths[r] = a.row_length(r);
  const std::span<const index_t> rows(lengths);
  const auto split = static_cast<std::size_t>(inner);
  return sell_device_bytes(rows.first(split), slice_height, float_values) +
         sell_device_bytes(rows.subspan(split), slice_height, float_values);
}

namespace {
CsrMatrix checked_square(const CsrMatrix& a, index_t local) {
  if (a.rows != local || a.cols != local)
    throw Error("OverlappedOperator: a " + std::to_string(a.rows) + " × " + std::to_string(a.cols) +
                " matrix for a rank with " + std::to_string(local) + " cells (owned + halo)");
  return a;
}
}  // namespace

OverlappedOperator::OverlappedOperator(const Executor& exec, const CsrMatrix& local, const Subdomain& domain,
                                       index_t slice_height)
    : exec_(exec),
      local_(domain.local_count()),
      inner_(exec, to_sell(row_block(checked_square(local, domain.local_count()), 0, domain.inner_count()),
                           slice_height)),
      interface_(exec, to_sell(row_block(local, domain.inner_count(), domain.owned_count()), slice_height)) {}

void OverlappedOperator::multiply(const DeviceSell& part, index_t first_row, const Vector& x, Vector& y) const {
  if (part.rows() == 0) return;
  Vector rows = y.window(first_row, part.rows());
  spmv(exec_, part, x, rows);
}

void OverlappedOperator::apply(Subdomain& domain, Vector& x, Vector& y) const {
  domain.start_halo_update(x);
  multiply(inner_, 0, x, y);
  domain.finish_halo_update(x);
  multiply(interface_, inner_.rows(), x, y);
}

void OverlappedOperator::apply_after_update(Subdomain& domain, Vector& x, Vector& y) const {
  domain.update_halo(x);
  apply_local(x, y);
}

void OverlappedOperator::apply_local(const Vector& x, Vector& y) const {
  multiply(inner_, 0, x, y);
  multiply(interface_, inner_.rows(), x, y);
}

}  // namespace miniapp::parallel
