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
  // Iterations per batch that suit this preconditioner where PcgOptions::check_interval is 0; 0 leaves
  // it to the backend (default_check_interval). Iterations queued past the stop still run the apply,
  // so one that costs many SpMVs wants 1.
  virtual int batch_iterations() const { return 0; }
  // The apply followed by what cg_rho does (ρ_new = r·z, β = ρ_new / ρ, ρ ← ρ_new in s; nothing
  // once s's status is not running), fused into one pass where the preconditioner can: returns true
  // when it did, false (having done nothing) when the solver must call apply and cg_rho itself.
  virtual bool apply_with_rho(const Vector& /*r*/, Vector& /*z*/, CgScalars& /*s*/) const { return false; }
  // Whether apply_advancing does its work: the solver then leaves its update to the apply.
  virtual bool fuses_update() const { return false; }
  // Whether apply_advancing may write the new residual over the old one.
  virtual bool residual_in_place() const { return true; }
  // What cg_update does (x += α p, r_new = r − α q, γ = r_new·r_new, the iteration counted, the
  // residual test), then apply_with_rho of r_new, in the apply's passes (on CUDA the update then costs
  // no kernel and no grid-wide sum of its own). r_new may be r itself where residual_in_place(); else
  // it must be a vector apart (a pass gathers r − α q at neighbouring rows while it writes its own).
  // Called only when fuses_update().
  virtual void apply_advancing(const Vector& /*p*/, const Vector& /*q*/, Vector& /*x*/, const Vector& /*r*/,
                               Vector& /*r_new*/, Vector& /*z*/, CgScalars& /*s*/) const {
    throw Error("Preconditioner::apply_advancing: this preconditioner does not take the CG update");
  }
};

}  // namespace miniapp
