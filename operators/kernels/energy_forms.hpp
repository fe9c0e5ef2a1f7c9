#pragma once
#include <span>

#include "operators/backend/device_matrix.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp {

// The kinetic energy and the quadratic forms of the energy budget in one pass over a matrix's
// pattern, without writing any product (an observer's kernel: a diagnostics row would otherwise apply
// each operator to the midpoint by an SpMV, write the product and read it back in a DOT). With
// ū = ½(u + u_old) per component d < 3, over the leading n ≤ a.rows() rows (a rank's owned cells,
// which are the leading columns):
//   out[0]     = Σ_{i<n} w_i Σ_d u_{d,i}²
//   out[1 + v] = Σ_{i<n} Σ_d ū_{d,i} (A_v ū_d)_i,   A_v = `a` with the values values[v], v < k
//   out[1 + k] = the same with the off-diagonal entries of values[0] and the diagonal of `diagonal`
//                (when given, k ≥ 1): ūᵀ B ū for a B that differs from A_0 by a diagonal plus a
//                skew-symmetric part (which adds nothing to a quadratic form), read at the diagonal only.
// (The momentum operator R = C + D is such a B to D: the convective operator's off-diagonal entries are
// ±½ A_f u_s, skew by construction, operators/fv/convection_operator.hpp.) `out` has 1 + k (+ 1)
// entries on the executor, at most max_energy_forms + 1: asynchronous on CUDA. out[0] is the same
// bitwise whatever else is asked (the same order of summation), so a call without values gives the
// energy alone, as the full call would. Bytes, counted as an SpMV: the pattern's columns and slice
// pointers and each value array once (none without values), `diagonal` at n entries, u and u_old over
// a.cols() (without values: u over n), w over n.
void energy_forms(const Executor& exec, const DeviceSell& a, std::span<const Vector* const> values,
                  const Vector* diagonal, std::span<const Vector* const, 3> u, std::span<const Vector* const, 3> u_old,
                  const Vector& w, index_t n, Vector& out);

}  // namespace miniapp
