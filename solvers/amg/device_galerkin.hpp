#pragma once
#include <optional>

#include "operators/backend/executor.hpp"
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::amg {

// The coarse operator R (A P) with both sparse products on a CUDA executor's device: the same sums
// in the same order as galerkin_product on the host, so the same bits, in a fraction of the host's
// time on large levels (docs/amg.md). Nothing when the executor is not CUDA, when a row of A P or of
// R (A P) has more columns than the device's per-row table holds, or when the device lacks the memory
// for the products: the caller then multiplies on the host.
std::optional<CsrMatrix> device_galerkin_product(const Executor& exec, const CsrMatrix& r, const CsrMatrix& a,
                                                 const CsrMatrix& p);

}  // namespace miniapp::amg
