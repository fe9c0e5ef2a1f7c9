#include "solvers/amg/device_galerkin.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "operators/backend/cuda/device.hpp"
#include "solvers/amg/cuda/level_kernels.hpp"
#include "solvers/amg/cuda/sparse_product.hpp"
#include "solvers/amg/level_matrix.hpp"  // csr_device_bytes

namespace miniapp::amg {

std::optional<DeviceCsr> device_sparse_product(const DeviceCsr& a, const DeviceCsr& b) {
  const Executor& exec = a.executor();
  Array<index_t> counts(exec, a.rows()), offsets(exec, a.rows() + 1);
  if (!cuda::product_row_counts(exec.stream(), a.view(), b.view(), counts.data())) return std::nullopt;
  const std::int64_t entries = cuda::row_offsets(exec.stream(), a.rows(), counts.data(), offsets.data());
  const index_t nnz = checked_index(static_cast<std::size_t>(entries), "AMG: entries of a sparse product");
  if (!device_has_room(exec, static_cast<std::size_t>(nnz) * (sizeof(index_t) + sizeof(double)))) return std::nullopt;
  Array<index_t> col(exec, nnz);
  Vector val(exec, nnz);
  cuda::product_rows(exec.stream(), a.view(), b.view(), offsets.data(), col.data(), val.data());
  return DeviceCsr(a.rows(), b.cols(), std::move(offsets), std::move(col), std::move(val));
}

std::size_t device_bytes(const CsrMatrix& m) { return csr_device_bytes(m.rows, m.nnz()); }

bool device_has_room(const Executor& exec, std::size_t bytes) {
  return exec.backend() == Backend::cuda && bytes <= miniapp::cuda::memory_info(exec.device()).free_bytes;
}

std::optional<DeviceCsr> device_galerkin_product(const DeviceCsr& r, const DeviceCsr& a, const DeviceCsr& p) {
  if (a.cols() != p.rows() || r.cols() != a.rows())
    throw Error("AMG: the Galerkin product's dimensions differ (R " + std::to_string(r.rows()) + "x" +
                std::to_string(r.cols()) + ", A " + std::to_string(a.rows()) + "x" + std::to_string(a.cols()) + ", P " +
                std::to_string(p.rows()) + "x" + std::to_string(p.cols()) + ")");
  std::optional<DeviceCsr> ap = device_sparse_product(a, p);
  if (!ap) return std::nullopt;
  return device_sparse_product(r, *ap);
}

std::optional<DeviceCsr> device_galerkin_product(const Executor& exec, const CsrMatrix& r, const CsrMatrix& a,
                                                 const CsrMatrix& p) {
  if (exec.backend() != Backend::cuda) return std::nullopt;
  if (!device_has_room(exec, device_bytes(r) + device_bytes(a) + device_bytes(p))) return std::nullopt;
  // All three before the products (whose dimensions that form checks), whose own arrays are then
  // checked against what is left.
  const DeviceCsr on_a(exec, a), on_p(exec, p), on_r(exec, r);
  return device_galerkin_product(on_r, on_a, on_p);
}

}  // namespace miniapp::amg
