#pragma once
#include "operators/backend/device_matrix.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "solvers/preconditioner.hpp"

namespace miniapp {

// Approximate inverse preconditioner (thesis §1.2.2): z = Gᵀ (G r) with G = aip_factor(A, level),
// M = Gᵀ G ≈ A⁻¹. G is computed once on the host at pre-processing; G and Gᵀ are stored as sELL on
// the executor, so apply is two SpMVs and nothing else (thesis §1.6: the AIP costs about two SpMVs of
// A at level 1, more at levels 2 and 3 where G is denser).
class Aip final : public Preconditioner {
 public:
  // A: symmetric, positive definite on every local pattern (see aip_factor); level in 1..3; G and Gᵀ
  // are converted to sELL with slices of `slice_height` rows. Throws miniapp::Error from aip_factor.
  Aip(const Executor& exec, const CsrMatrix& a, int level, index_t slice_height = 32);
  // Bytes: two SpMVs over nnz(G) entries each plus a temporary written and read once. Not safe to call
  // concurrently on one object (the temporary is shared).
  void apply(const Vector& r, Vector& z) const override;

  int level() const { return level_; }
  const DeviceSell& factor() const { return g_; }
  const DeviceSell& factor_transpose() const { return gt_; }

 private:
  struct HostFactors {
    SellMatrix g, gt;
  };
  static HostFactors build_factors(const CsrMatrix& a, int level, index_t slice_height);
  Aip(const Executor& exec, HostFactors&& factors, int level);

  Executor exec_;
  int level_;
  DeviceSell g_, gt_;
  mutable Vector tmp_;  // G r; scratch, so apply stays logically const
};

}  // namespace miniapp
