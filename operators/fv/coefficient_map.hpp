#pragma once
// The builder of the coefficient maps E_C and E_D (not a public interface).
#include "operators/sparse/csr_matrix.hpp"
#include "operators/sparse/sell_matrix.hpp"

namespace miniapp::fv::detail {

// Throws miniapp::Error, naming `caller`, when `layout` is not a conversion of `pattern` (the same
// shape and row lengths).
void require_layout_of(const CsrMatrix& pattern, const SellLayout& layout, const char* caller);

// The map E of A(φ_s) = M diag(φ_s) B (M cells × faces, B faces × cells) to the values array of A
// stored as `layout` (sell_layout or to_sell of `pattern`, the momentum pattern): values = E φ_s.
// Throws miniapp::Error, naming `caller`, when `layout` is not a conversion of the pattern or A has an
// entry outside it.
CsrMatrix coefficient_map(const CsrMatrix& m, const CsrMatrix& b, const CsrMatrix& pattern, const SellLayout& layout,
                          const char* caller);
}  // namespace miniapp::fv::detail
