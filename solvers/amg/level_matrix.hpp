#pragma once
#include <variant>

#include "operators/backend/device_matrix.hpp"
#include "operators/kernels/aip_kernels.hpp"
#include "solvers/amg/level_operator.hpp"

namespace miniapp::amg {

// A matrix of the hierarchy in executor memory, its values stored in double or in float (AmgOptions::
// float_storage: 8 instead of 12 bytes per stored entry; a preconditioner needs no double precision,
// and every vector and sum stays double). Float rounding keeps R = Pᵀ and A symmetric exactly (equal
// values round alike), so the cycle stays symmetric.
// Executor bytes of m once converted to sELL and uploaded: slice pointers, a column index and a value
// (float or double) per stored entry.
std::size_t sell_device_bytes(const CsrMatrix& m, index_t slice_height, bool float_values);
// The same of a matrix already in CUDA device memory (its row lengths read there).
std::size_t sell_device_bytes(const DeviceCsr& m, index_t slice_height, bool float_values);

class LevelMatrix final : public LevelOperator, public CoarseSolve {
 public:
  LevelMatrix(const Executor& exec, const SellMatrix& host, bool float_values);
  // to_sell(host, slice_height) with double values, laid out in executor memory without a host sELL
  // copy (DeviceSell's CSR upload).
  LevelMatrix(const Executor& exec, const CsrMatrix& host, index_t slice_height);
  // The same of a matrix already in CUDA device memory, laid out there.
  LevelMatrix(const DeviceCsr& on_device, index_t slice_height);
  // The level's matrix already on the executor (the solver's own A), used in place: no second copy.
  // It must outlive this object.
  LevelMatrix(const Executor& exec, const DeviceSell& borrowed) : exec_(exec), matrix_(&borrowed) {}
  // y = A x through the front end of its storage (spmv), counted as one SpMV.
  void apply(const Executor& exec, const Vector& x, Vector& y) const;
  // The same on the executor it was uploaded to.
  void apply(Vector& x, Vector& y) const override { apply(exec_, x, y); }
  void solve(const Vector& b, Vector& x) const override { apply(exec_, b, x); }
  index_t rows() const;

 private:
  Executor exec_;
  std::variant<DeviceSell, DeviceSellFloat, const DeviceSell*> matrix_;
};

}  // namespace miniapp::amg
