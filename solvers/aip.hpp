#pragma once
#include "operators/kernels/aip_kernels.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "solvers/preconditioner.hpp"

namespace miniapp {

// Approximate inverse preconditioner (thesis §1.2.2): z = Gᵀ (G r) with G = aip_factor(A, level),
// M = Gᵀ G ≈ A⁻¹. G is computed once on the host at pre-processing and stored on the executor with
// float values (operators/kernels/aip_kernels.hpp): the apply is the thesis' two SpMVs (G, then Gᵀ),
// or one with the product Gᵀ G where that moves fewer bytes (AipForm), and can carry the CG
// iteration's r·z (apply_with_rho).
class Aip final : public Preconditioner {
 public:
  // A: symmetric, positive definite on every local pattern (see aip_factor); level in 1..3; G and Gᵀ
  // are stored as sELL with slices of `slice_height` rows. Throws miniapp::Error from aip_factor.
  Aip(const Executor& exec, const CsrMatrix& a, int level, index_t slice_height = 32,
      AipForm form = AipForm::fewer_bytes);
  // From G's host matrices built beforehand (aip_host_matrices of aip_factor(A, level), with this slice
  // height), which the memory estimate has sized.
  Aip(const Executor& exec, const AipHostMatrices& factor, int level, index_t slice_height);
  // Bytes: the form's matrices read once each (8 per stored entry), r read, z written, and with two
  // passes a temporary written and read. Not safe to call concurrently on one object (the temporary
  // is shared).
  void apply(const Vector& r, Vector& z) const override;
  // apply with ρ = r·z fused (aip_apply with the scalar block): always true.
  bool apply_with_rho(const Vector& r, Vector& z, CgScalars& s) const override;
  // The update joins the passes (aip_apply_advancing): always; in place with two passes, where the
  // first gathers r − α q and the second writes it.
  bool fuses_update() const override { return true; }
  bool residual_in_place() const override { return g_.form() == AipForm::two_pass; }
  void apply_advancing(const Vector& p, const Vector& q, Vector& x, const Vector& r, Vector& r_new, Vector& z,
                       CgScalars& s) const override;

  int level() const { return level_; }
  const DeviceAipFactor& factor() const { return g_; }

 private:
  Executor exec_;
  int level_;
  DeviceAipFactor g_;
};

}  // namespace miniapp
