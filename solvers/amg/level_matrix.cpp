#include "solvers/amg/level_matrix.hpp"

#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/fused_spmv.hpp"
#include "operators/kernels/spmv.hpp"

namespace miniapp::amg {
namespace {

using Stored = std::variant<DeviceSell, DeviceSellFloat, DeviceCsr>;

// At most this many rows, of at least csr_warp_row_entries entries on average.
constexpr index_t csr_rows_limit = 1 << 15;

Stored upload(const Executor& exec, const SellMatrix& host, bool float_values) {
  if (float_values) return Stored(std::in_place_type<DeviceSellFloat>, exec, host);
  return Stored(std::in_place_type<DeviceSell>, exec, host);
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

bool kept_in_csr(index_t rows, index_t nnz) {
  return rows <= csr_rows_limit && nnz >= csr_warp_row_entries * static_cast<double>(rows);
}

std::size_t csr_device_bytes(index_t rows, index_t nnz) {
  return sizeof(index_t) * (static_cast<std::size_t>(rows) + 1) +
         (sizeof(index_t) + sizeof(double)) * static_cast<std::size_t>(nnz);
}

std::size_t level_device_bytes(const CsrMatrix& m, index_t slice_height, bool float_values) {
  return kept_in_csr(m.rows, m.nnz()) ? csr_device_bytes(m.rows, m.nnz()) : sell_device_bytes(m, slice_height, float_values);
}

std::size_t level_device_bytes(const DeviceCsr& m, index_t slice_height, bool float_values) {
  return kept_in_csr(m.rows(), m.nnz()) ? csr_device_bytes(m.rows(), m.nnz())
                                        : sell_device_bytes(m, slice_height, float_values);
}

LevelMatrix::LevelMatrix(const Executor& exec, const SellMatrix& host, bool float_values)
    : exec_(exec), matrix_(upload(exec, host, float_values)) {}

void LevelMatrix::multiply(const Vector& x, Vector& y) const {
  std::visit([&](const auto& a) { spmv(exec_, a, x, y); }, matrix_);
}

void LevelMatrix::apply_axpby(Vector& x, double alpha, const Vector& u, double beta, Vector& y) const {
  std::visit([&](const auto& a) { spmv_axpby(exec_, a, x, alpha, u, beta, y); }, matrix_);
}

void LevelMatrix::jacobi_step(const Vector& x, const Vector& v, const Vector& b, const Vector& w, Vector& y) const {
  std::visit([&](const auto& a) { miniapp::jacobi_step(exec_, a, x, v, b, w, y); }, matrix_);
}

}  // namespace miniapp::amg
