#pragma once
#include "operators/kernels/vector_ops.hpp"
#include "solvers/preconditioner.hpp"

namespace miniapp {

// No preconditioning (M = I, z = r): plain CG, the baseline against which preconditioners and other
// CG codes are compared. Offered to the solver as the diagonal 1, so the fused Jacobi kernels run it
// (8 bytes per row more than a z = r that skipped the multiply).
class Identity final : public Preconditioner {
 public:
  Identity(const Executor& exec, index_t rows) : exec_(exec), ones_(exec, rows) { fill(exec_, 1.0, ones_); }
  void apply(const Vector& r, Vector& z) const override { copy(exec_, r, z); }
  const Vector* diagonal_inverse() const override { return &ones_; }

 private:
  Executor exec_;
  Vector ones_;
};

}  // namespace miniapp
