#include "operators/backend/device_matrix.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "operators/backend/cuda/kernels.hpp"

namespace miniapp {
namespace {

// Rows of CSR copied to a device at once (rounded down to whole slices): the buffers they pass
// through, outside the memory estimate's count, hold that many rows (a few tens of MB for the flow
// operators' short rows) and never more than the matrix itself.
constexpr index_t rows_per_copy = index_t{1} << 18;

// The sELL arrays (slice_ptr already there) written on the device from `host`'s CSR rows, copied
// there a block of slices at a time as they are: the host neither converts nor holds a sELL copy.
// `col` null: the values alone (the columns neither copied nor written).
void fill_sell_on_device(const Executor& exec, const CsrMatrix& host, index_t slice_height, index_t slice_count,
                         const index_t* slice_ptr, index_t* col, Vector& val) {
  const index_t padded_rows = slice_count * slice_height;
  const index_t block = std::max(slice_height, rows_per_copy / slice_height * slice_height);
  const auto entry = [&](index_t row) { return host.row_ptr[std::min(row, host.rows)]; };
  index_t most_entries = 1;
  for (index_t first = 0; first < padded_rows; first += block)
    most_entries = std::max(most_entries, entry(first + block) - entry(first));
  Array<index_t> row_ptr_buffer(exec, block + 1), col_buffer(exec, col ? most_entries : 0);
  Vector val_buffer(exec, most_entries);
  for (index_t first = 0; first < padded_rows; first += block) {
    const index_t count = std::min(block, padded_rows - first);
    const index_t stored = std::clamp(host.rows - first, index_t{0}, count);  // rows below host.rows
    const index_t first_entry = entry(first), entries = entry(first + count) - first_entry;
    if (stored > 0)
      exec.copy_from_host(row_ptr_buffer.data(), host.row_ptr.data() + first, sizeof(index_t) * (stored + 1));
    if (entries > 0) {
      if (col) exec.copy_from_host(col_buffer.data(), host.col.data() + first_entry, sizeof(index_t) * entries);
      exec.copy_from_host(val_buffer.data(), host.val.data() + first_entry, sizeof(double) * entries);
    }
    // In stream order: the next block's copies wait for this block's kernel.
    cuda::fill_sell(exec.stream(), {first, count, host.rows, host.cols, slice_height, first_entry}, slice_ptr,
                    row_ptr_buffer.data(), col_buffer.data(), val_buffer.data(), col, val.data());
  }
  exec.synchronize();
}

}  // namespace

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
  const std::vector<index_t> offsets = sell_slice_offsets(host, slice_height);
  slice_count_ = static_cast<index_t>(offsets.size()) - 1;
  slice_ptr_ = Array<index_t>::from_host(exec, offsets);
  col_ = Array<index_t>(exec, offsets.back());
  val_ = Vector(exec, offsets.back());
  if (exec.backend() == Backend::cpu) fill_sell(host, slice_height, offsets, col_.data(), val_.data());
  else fill_sell_on_device(exec, host, slice_height, slice_count_, slice_ptr_.data(), col_.data(), val_);
}

DeviceSell::DeviceSell(const DeviceCsr& csr, index_t slice_height)
    : rows_(csr.rows()), cols_(csr.cols()), slice_height_(slice_height), slice_count_(0), nnz_(csr.nnz()) {
  const Executor& exec = csr.executor();
  if (exec.backend() != Backend::cuda) throw Error("DeviceSell: a CSR matrix in device memory needs the CUDA backend");
  if (slice_height < 1) throw Error("to_sell: slice height " + std::to_string(slice_height) + " must be at least 1");
  slice_count_ = (rows_ + slice_height - 1) / slice_height;
  slice_ptr_ = Array<index_t>(exec, slice_count_ + 1);
  const CsrView m = csr.view();
  const index_t stored = cuda::sell_slice_offsets(exec.stream(), m.row_ptr, rows_, slice_height, slice_ptr_.data());
  col_ = Array<index_t>(exec, stored);
  val_ = Vector(exec, stored);
  cuda::fill_sell(exec.stream(), {0, slice_count_ * slice_height, rows_, cols_, slice_height, 0}, slice_ptr_.data(),
                  m.row_ptr, m.col, m.val, col_.data(), val_.data());
  exec.synchronize();
}

DeviceSell::DeviceSell(const DeviceSell& structure, Vector values)
    : rows_(structure.rows_),
      cols_(structure.cols_),
      slice_height_(structure.slice_height_),
      slice_count_(structure.slice_count_),
      nnz_(structure.nnz_),
      slice_ptr_(structure.slice_ptr_.window(0, structure.slice_ptr_.size())),
      col_(structure.col_.window(0, structure.col_.size())),
      val_(std::move(values)) {
  if (val_.size() != structure.stored_entries())
    throw Error("DeviceSell: " + std::to_string(val_.size()) + " values for a matrix of " +
                std::to_string(structure.stored_entries()) + " stored entries");
}

DeviceSell::Structure DeviceSell::structure_window() const {
  return {slice_ptr_.window(0, slice_ptr_.size()), col_.window(0, col_.size())};
}

DeviceSell::Structure DeviceSell::take_structure() && { return {std::move(slice_ptr_), std::move(col_)}; }

DeviceSell DeviceSell::with_values(const Vector& values) const { return DeviceSell(*this, values.window(0, values.size())); }

DeviceSell DeviceSell::with_values_of(const CsrMatrix& host) const {
  const std::vector<index_t> offsets = sell_slice_offsets(host, slice_height_);
  if (host.rows != rows_ || host.cols != cols_ || host.nnz() != nnz_ || offsets.back() != stored_entries())
    throw Error("DeviceSell::with_values_of: a " + std::to_string(host.rows) + " x " + std::to_string(host.cols) +
                " matrix of " + std::to_string(host.nnz()) + " entries on the structure of a " + std::to_string(rows_) +
                " x " + std::to_string(cols_) + " one of " + std::to_string(nnz_));
  const Executor& exec = executor();
  Vector values(exec, stored_entries());
  if (exec.backend() == Backend::cpu) fill_sell(host, slice_height_, offsets, nullptr, values.data());
  else fill_sell_on_device(exec, host, slice_height_, slice_count_, slice_ptr_.data(), nullptr, values);
  return DeviceSell(*this, std::move(values));
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

DeviceCsr::DeviceCsr(const Executor& exec, CsrMatrix&& host)
    : rows_(host.rows),
      cols_(host.cols),
      row_ptr_(Array<index_t>::from_host(exec, std::move(host.row_ptr))),
      col_(Array<index_t>::from_host(exec, std::move(host.col))),
      val_(Vector::from_host(exec, std::move(host.val))) {}

DeviceCsr::DeviceCsr(index_t rows, index_t cols, Array<index_t> row_ptr, Array<index_t> col, Vector val)
    : rows_(rows), cols_(cols), row_ptr_(std::move(row_ptr)), col_(std::move(col)), val_(std::move(val)) {
  if (row_ptr_.size() != rows_ + 1 || col_.size() != val_.size())
    throw Error("DeviceCsr: " + std::to_string(row_ptr_.size()) + " offsets for " + std::to_string(rows_) + " rows, " +
                std::to_string(col_.size()) + " columns for " + std::to_string(val_.size()) + " values");
}

CsrMatrix DeviceCsr::to_host() const {
  return {rows_, cols_, row_ptr_.to_host<UninitializedVector<index_t>>(), col_.to_host<UninitializedVector<index_t>>(),
          val_.to_host<UninitializedVector<double>>()};
}

CsrView DeviceCsr::view() const { return {rows_, cols_, row_ptr_.data(), col_.data(), val_.data(), nnz()}; }

}  // namespace miniapp
