#pragma once
#include <variant>

#include "operators/backend/device_matrix.hpp"
#include "operators/kernels/aip_kernels.hpp"

namespace miniapp::amg {

// A matrix of the hierarchy in executor memory, its values stored in double or in float (AmgOptions::
// float_storage: 8 instead of 12 bytes per stored entry; a preconditioner needs no double precision,
// and every vector and sum stays double). Float rounding keeps R = Pᵀ and A symmetric exactly (equal
// values round alike), so the cycle stays symmetric.
class LevelMatrix {
 public:
  LevelMatrix(const Executor& exec, const SellMatrix& host, bool float_values);
  // The level's matrix already on the executor (the solver's own A), used in place: no second copy.
  // It must outlive this object.
  explicit LevelMatrix(const DeviceSell& borrowed) : matrix_(&borrowed) {}
  // y = A x through the front end of its storage (spmv), counted as one SpMV.
  void apply(const Executor& exec, const Vector& x, Vector& y) const;
  index_t rows() const;

 private:
  std::variant<DeviceSell, DeviceSellFloat, const DeviceSell*> matrix_;
};

}  // namespace miniapp::amg
