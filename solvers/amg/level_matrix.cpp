#include "solvers/amg/level_matrix.hpp"

#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/fused_spmv.hpp"
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

std::size_t sell_device_bytes(const DeviceCsr& m, index_t slice_height, bool float_values) {
  const Executor& exec = m.executor();
  const index_t slices = (m.rows() + slice_height - 1) / slice_height;
  Array<index_t> slice_ptr(exec, slices + 1);
  const auto stored = static_cast<std::size_t>(
      cuda::sell_slice_offsets(exec.stream(), m.view().row_ptr, m.rows(), slice_height, slice_ptr.data()));
  return sizeof(index_t) * (static_cast<std::size_t>(slices) + 1) +
         (sizeof(index_t) + (float_values ? sizeof(float) : sizeof(double))) * stored;
}

LevelMatrix::LevelMatrix(const Executor& exec, const SellMatrix& host, bool float_values)
    : exec_(exec), matrix_(upload(exec, host, float_values)) {}

void LevelMatrix::apply(const Executor& exec, const Vector& x, Vector& y) const {
  std::visit([&](const auto& a) { spmv(exec, matrix(a), x, y); }, matrix_);
}

void LevelMatrix::apply_axpby(Vector& x, double alpha, const Vector& u, double beta, Vector& y) const {
  std::visit([&](const auto& a) { spmv_axpby(exec_, matrix(a), x, alpha, u, beta, y); }, matrix_);
}

void LevelMatrix::jacobi_step(const Vector& x, const Vector& v, const Vector& b, const Vector& w, Vector& y) const {
  std::visit([&](const auto& a) { miniapp::jacobi_step(exec_, matrix(a), x, v, b, w, y); }, matrix_);
}

index_t LevelMatrix::rows() const {
  return std::visit([](const auto& a) { return matrix(a).rows(); }, matrix_);
}

}  // namespace miniapp::amg
