#pragma once
#include <optional>

#include "operators/backend/device_matrix.hpp"
#include "operators/backend/executor.hpp"
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::amg {

// A B on a CUDA device, the same sums in the same order as amg::sparse_product on the host, so the
// same bits. Nothing when a row of A B has more columns than the device's per-row table holds or its
// arrays do not fit in the free device memory.
std::optional<DeviceCsr> device_sparse_product(const DeviceCsr& a, const DeviceCsr& b);

// The coarse operator R (A P) with both sparse products on a CUDA executor's device: the host's
// galerkin_product bit for bit, in a fraction of the host's time on large levels (docs/amg.md).
// Nothing when the executor is not CUDA, when a row of A P or of R (A P) has more columns than the
// device's per-row table holds, or when the device lacks the memory for the products: the caller then
// multiplies on the host. The product stays in device memory (the next level's A there). The second
// form takes the three matrices already in device memory.
std::optional<DeviceCsr> device_galerkin_product(const Executor& exec, const CsrMatrix& r, const CsrMatrix& a,
                                                 const CsrMatrix& p);
std::optional<DeviceCsr> device_galerkin_product(const DeviceCsr& r, const DeviceCsr& a, const DeviceCsr& p);

// The bytes of m's arrays in device memory.
std::size_t device_bytes(const CsrMatrix& m);

// Whether the executor's device has `bytes` free.
bool device_has_room(const Executor& exec, std::size_t bytes);

}  // namespace miniapp::amg
