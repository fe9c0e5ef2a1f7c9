#pragma once
#include "operators/backend/array.hpp"

namespace miniapp {

class CgScalars;

// z = M⁻¹ r for a preconditioner M of a symmetric positive (semi-)definite system. Implementations
// work through the front-end kernels only, so they run on any backend; r and z live on the
// preconditioner's executor, have the system's length and are distinct vectors.
class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  virtual void apply(const Vector& r, Vector& z) const = 0;
  // When M⁻¹ is diagonal, the vector d of M⁻¹ = diag(d) (apply is z = d ∘ r), so that a solver can
  // fuse the apply into its own vector kernels; nullptr otherwise.
  virtual const Vector* diagonal_inverse() const { return nullptr; }
  // The apply followed by what cg_rho does (ρ_new = r·z, β = ρ_new / ρ, ρ ← ρ_new in s; nothing
  // once s's status is not running), fused into one pass where the preconditioner can: returns true
  // when it did, false (having done nothing) when the solver must call apply and cg_rho itself.
  virtual bool apply_with_rho(const Vector& /*r*/, Vector& /*z*/, CgScalars& /*s*/) const { return false; }
  // Whether apply_with_residual_test does its work: the solver then updates x and r with cg_advance,
  // leaving the residual test to the apply (on CUDA, one grid-wide sum fewer per iteration).
  virtual bool fuses_residual_test() const { return false; }
  // What cg_update's residual test does (γ = r·r, the iteration counted, cg::finish_residual), then
  // apply_with_rho, in the apply's passes. Called only when fuses_residual_test().
  virtual void apply_with_residual_test(const Vector& /*r*/, Vector& /*z*/, CgScalars& /*s*/) const {
    throw Error("Preconditioner::apply_with_residual_test: not fused by this preconditioner");
  }
};

}  // namespace miniapp
