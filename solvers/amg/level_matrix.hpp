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
class LevelMatrix final : public LevelOperator, public CoarseSolve {
 public:
  LevelMatrix(const Executor& exec, const SellMatrix& host, bool float_values);
  // y = A x through the front end of its storage (spmv), counted as one SpMV.
  void apply(const Executor& exec, const Vector& x, Vector& y) const;
  // The same on the executor it was uploaded to.
  void apply(Vector& x, Vector& y) const override { apply(exec_, x, y); }
  void solve(const Vector& b, Vector& x) const override { apply(exec_, b, x); }
  index_t rows() const;

 private:
  Executor exec_;
  std::variant<DeviceSell, DeviceSellFloat> matrix_;
};

}  // namespace miniapp::amg
