#pragma once
// The builder of the coefficient maps E_C and E_D (not a public interface).
#include "operators/fv/flow_operators.hpp"
#include "operators/sparse/sell_matrix.hpp"

namespace miniapp::fv::detail {

// The map E of A(φ_s) = M diag(φ_s) B (M cells × faces, B faces × cells, cells in ops order) to the
// values array of A stored as `layout` (a SellMatrix of ops.momentum_pattern): values = E φ_s.
// Throws miniapp::Error, naming `caller`, when `layout` is not a conversion of the momentum pattern
// or A has an entry outside it.
CsrMatrix coefficient_map(const CsrMatrix& m, const CsrMatrix& b, const FlowOperators& ops, const SellMatrix& layout,
                          const char* caller);
// E φ for one face field φ, bitwise as reference_spmv(coefficient_map(...), φ) gives it, without
// building E (D's values for a constant ν_s); same checks.
std::vector<double> coefficient_values(const CsrMatrix& m, const CsrMatrix& b, const FlowOperators& ops,
                                       const SellMatrix& layout, const std::vector<double>& face_values,
                                       const char* caller);

}  // namespace miniapp::fv::detail
