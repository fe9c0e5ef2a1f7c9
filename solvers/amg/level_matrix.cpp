#include "solvers/amg/level_matrix.hpp"

#include "operators/kernels/spmv.hpp"

namespace miniapp::amg {
namespace {

using Stored = std::variant<DeviceSell, DeviceSellFloat, const DeviceSell*>;

Stored upload(const Executor& exec, const SellMatrix& host, bool float_values) {
  if (float_values) return Stored(std::in_place_type<DeviceSellFloat>, exec, host);
  return Stored(std::in_place_type<DeviceSell>, exec, host);
}

const DeviceSell& matrix(const DeviceSell* borrowed) { return *borrowed; }
template <class M>
const M& matrix(const M& owned) {
  return owned;
}

}  // namespace

LevelMatrix::LevelMatrix(const Executor& exec, const SellMatrix& host, bool float_values)
    : matrix_(upload(exec, host, float_values)) {}

void LevelMatrix::apply(const Executor& exec, const Vector& x, Vector& y) const {
  std::visit([&](const auto& a) { spmv(exec, matrix(a), x, y); }, matrix_);
}

index_t LevelMatrix::rows() const {
  return std::visit([](const auto& a) { return matrix(a).rows(); }, matrix_);
}

}  // namespace miniapp::amg
