#include "operators/backend/device_matrix.hpp"

namespace miniapp {

DeviceSell::DeviceSell(const Executor& exec, const SellMatrix& host)
    : rows_(host.rows),
      cols_(host.cols),
      slice_height_(host.slice_height),
      slice_count_(host.slice_count()),
      nnz_(host.nnz),
      slice_ptr_(Array<index_t>::from_host(exec, host.slice_ptr)),
      col_(Array<index_t>::from_host(exec, host.col)),
      val_(Vector::from_host(exec, host.val)) {}

DeviceSell::DeviceSell(const Executor& exec, const CsrMatrix& host, index_t slice_height)
    : rows_(host.rows), cols_(host.cols), slice_height_(slice_height), slice_count_(0), nnz_(host.nnz()) {
  if (exec.backend() != Backend::cpu) {
    *this = DeviceSell(exec, to_sell(host, slice_height));
    return;
  }
  const std::vector<index_t> offsets = sell_slice_offsets(host, slice_height);
  slice_count_ = static_cast<index_t>(offsets.size()) - 1;
  slice_ptr_ = Array<index_t>::from_host(exec, offsets);
  col_ = Array<index_t>(exec, offsets.back());
  val_ = Vector(exec, offsets.back());
  fill_sell(host, slice_height, offsets, col_.data(), val_.data());
}

DeviceSell::DeviceSell(const DeviceSell& structure, const Vector& values)
    : rows_(structure.rows_),
      cols_(structure.cols_),
      slice_height_(structure.slice_height_),
      slice_count_(structure.slice_count_),
      nnz_(structure.nnz_),
      slice_ptr_(structure.slice_ptr_.window(0, structure.slice_ptr_.size())),
      col_(structure.col_.window(0, structure.col_.size())),
      val_(values.window(0, values.size())) {}

DeviceSell DeviceSell::with_values(const Vector& values) const {
  if (values.size() != stored_entries())
    throw Error("DeviceSell::with_values: " + std::to_string(values.size()) + " values for a matrix of " +
                std::to_string(stored_entries()) + " stored entries");
  return DeviceSell(*this, values);
}

SellView DeviceSell::view() const {
  return {rows_, cols_, slice_height_, slice_count_, slice_ptr_.data(), col_.data(), val_.data()};
}

DeviceCsr::DeviceCsr(const Executor& exec, const CsrMatrix& host)
    : rows_(host.rows),
      cols_(host.cols),
      row_ptr_(Array<index_t>::from_host(exec, host.row_ptr)),
      col_(Array<index_t>::from_host(exec, host.col)),
      val_(Vector::from_host(exec, host.val)) {}

CsrView DeviceCsr::view() const { return {rows_, cols_, row_ptr_.data(), col_.data(), val_.data()}; }

}  // namespace miniapp
