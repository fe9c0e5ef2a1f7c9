#include "solvers/amg/level_matrix.hpp"

#include "operators/kernels/spmv.hpp"

namespace miniapp::amg {
namespace {

std::variant<DeviceSell, DeviceSellFloat> upload(const Executor& exec, const SellMatrix& host, bool float_values) {
  if (float_values) return std::variant<DeviceSell, DeviceSellFloat>(std::in_place_type<DeviceSellFloat>, exec, host);
  return std::variant<DeviceSell, DeviceSellFloat>(std::in_place_type<DeviceSell>, exec, host);
}

}  // namespace

LevelMatrix::LevelMatrix(const Executor& exec, const SellMatrix& host, bool float_values)
    : exec_(exec), matrix_(upload(exec, host, float_values)) {}

void LevelMatrix::apply(const Executor& exec, const Vector& x, Vector& y) const {
  std::visit([&](const auto& a) { spmv(exec, a, x, y); }, matrix_);
}

index_t LevelMatrix::rows() const {
  return std::visit([](const auto& a) { return a.rows(); }, matrix_);
}

}  // namespace miniapp::amg
