#pragma once
#include "operators/backend/array.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "operators/sparse/sell_matrix.hpp"

namespace miniapp {

// Plain views handed to backend kernels: pointers into executor memory.
struct SellView {
  index_t rows, cols, slice_height, slice_count;
  const index_t* slice_ptr;
  const index_t* col;
  const double* val;
};
struct CsrView {
  index_t rows, cols;
  const index_t* row_ptr;
  const index_t* col;
  const double* val;
  std::int64_t nnz = 0;  // entries, where the kernel's layout depends on them (DeviceCsr::view sets it)
};

class DeviceCsr;

// A sELL matrix in executor memory, uploaded once at pre-processing. Its values may be rewritten in
// place by a coefficient-update SpMV (E_C us → values()), its structure never changes.
class DeviceSell {
 public:
  DeviceSell(const Executor& exec, const SellMatrix& host);
  // to_sell(host, slice_height) in executor memory, with no host sELL copy: on the CPU backend written
  // there directly, on CUDA from the CSR rows copied as they are, laid out on the device.
  DeviceSell(const Executor& exec, const CsrMatrix& host, index_t slice_height);
  // The same of a CSR matrix already in CUDA device memory, laid out there (no host copy either way).
  DeviceSell(const DeviceCsr& csr, index_t slice_height);
  // A matrix of this one's structure with other values (e.g. one of the operators summed into a
  // matrix of a shared pattern), without a copy: it reads this matrix's structure and `values`
  // (stored_entries() of them), which must outlive it and are never written through it.
  DeviceSell with_values(const Vector& values) const;
  // `host`, a matrix of this one's pattern (the caller's check: same_pattern; shape, entries and padded
  // size checked here), stored as its values only, laid out in this structure and owned by the result:
  // only this matrix's structure must outlive it.
  DeviceSell with_values_of(const CsrMatrix& host) const;
  // The slice offsets and column indices, for a matrix of this structure with values of another type
  // (DeviceSellFloat): windows into this matrix's arrays (it must outlive them and is not changed), or
  // its own arrays moved out (the matrix keeps its values but no structure: only destroy it then).
  struct Structure {
    Array<index_t> slice_ptr, col;
  };
  Structure structure_window() const;
  Structure take_structure() &&;
  SellView view() const;
  Vector& values() { return val_; }
  const Vector& values() const { return val_; }
  index_t rows() const { return rows_; }
  index_t cols() const { return cols_; }
  index_t nnz() const { return nnz_; }
  index_t stored_entries() const { return val_.size(); }
  index_t slice_count() const { return slice_count_; }
  const Executor& executor() const { return val_.executor(); }

 private:
  // `values`: stored_entries() of them (checked), owned or a window.
  DeviceSell(const DeviceSell& structure, Vector values);

  index_t rows_, cols_, slice_height_, slice_count_, nnz_;
  Array<index_t> slice_ptr_, col_;
  Vector val_;
};

class DeviceCsr {
 public:
  DeviceCsr(const Executor& exec, const CsrMatrix& host);
  // The same, taking the host matrix's arrays over where the executor is the CPU (Array::from_host).
  DeviceCsr(const Executor& exec, CsrMatrix&& host);
  // From arrays already in executor memory (e.g. a product computed there): rows + 1 offsets, and
  // columns and values of the entries they delimit.
  DeviceCsr(index_t rows, index_t cols, Array<index_t> row_ptr, Array<index_t> col, Vector val);
  CsrMatrix to_host() const;
  CsrView view() const;
  Vector& values() { return val_; }  // rewritten in place by the AMG set-up's smoothing
  index_t rows() const { return rows_; }
  index_t cols() const { return cols_; }
  index_t nnz() const { return val_.size(); }
  const Executor& executor() const { return val_.executor(); }

 private:
  index_t rows_, cols_;
  Array<index_t> row_ptr_, col_;
  Vector val_;
};

}  // namespace miniapp
