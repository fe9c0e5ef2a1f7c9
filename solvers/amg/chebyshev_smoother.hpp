#pragma once
#include <vector>

#include "operators/backend/array.hpp"
#include "solvers/amg/level_operator.hpp"

namespace miniapp::amg {

// Chebyshev polynomial smoothing of A x = b, preconditioned by D = diag(A) (Saad, "Iterative methods
// for sparse linear systems", 2003, Algorithm 12.1): `degree` steps that damp the components of D⁻¹A's
// eigenvalues in [λmax / ratio, λmax] and reduce the rest. x ends as x₀ + q(D⁻¹A) D⁻¹ (b − A x₀) for a
// fixed polynomial q, so the error propagation I − q(D⁻¹A) D⁻¹A is self-adjoint in the A inner product:
// the same smoother before and after the coarse correction keeps the V-cycle symmetric. λmax must not
// be below the true largest eigenvalue (a larger one only weakens the smoothing). Degree 1 is damped
// Jacobi with ω = 2 / (λmax (1 + 1 / ratio)). Front-end kernels only (spmv, axpby, waxpby,
// pointwise_multiply, copy).
class ChebyshevSmoother {
 public:
  // a: the level's matrix on exec (kept by reference: it must outlive the smoother); d its diagonal, one
  // entry per entry of the level's vectors.
  ChebyshevSmoother(const Executor& exec, const LevelOperator& a, const std::vector<double>& d, double lambda_max,
                    double ratio, int degree);
  // x ← the smoothed iterate, from x = 0 when zero_guess (x is then not read), else from x. b and x:
  // the level's rows, distinct.
  void smooth(const Vector& b, Vector& x, bool zero_guess) const;
  int degree() const { return degree_; }

 private:
  Executor exec_;
  const LevelOperator& a_;
  int degree_;
  double theta_, delta_;           // centre and half-width of the interval
  Vector inverse_diagonal_;        // D⁻¹
  Vector scaled_inverse_diagonal_; // D⁻¹ / θ: the first step's
  mutable Vector residual_, direction_, work_;
};

}  // namespace miniapp::amg
