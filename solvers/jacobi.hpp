#pragma once
#include "operators/sparse/csr_matrix.hpp"
#include "solvers/preconditioner.hpp"

namespace miniapp {

// Jacobi (diagonal) preconditioner: z = D⁻¹ r with D = diag(A). The inverse diagonal is computed
// once on the host and stored on the executor, so apply is one pointwise kernel (24 bytes per row).
class Jacobi final : public Preconditioner {
 public:
  // A must be square with a strictly positive diagonal (an SPD matrix, or −L of a Laplacian);
  // throws miniapp::Error naming the first row that is not.
  Jacobi(const Executor& exec, const CsrMatrix& a);
  void apply(const Vector& r, Vector& z) const override;
  const Vector* diagonal_inverse() const override { return &inverse_diagonal_; }

 private:
  Executor exec_;
  Vector inverse_diagonal_;
};

}  // namespace miniapp
