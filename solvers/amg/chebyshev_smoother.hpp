#pragma once
#include <vector>

#include "operators/backend/array.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/amg/level_operator.hpp"

namespace miniapp::amg {

// A `step` of ChebyshevSmoother::steps and Amg's cycle that makes the kernel call at once.
struct RunNow {
  template <class Call>
  void operator()(const char* /*kernel*/, const char* /*operation*/, index_t /*rows*/, Call&& call) const {
    call();
  }
};

// Chebyshev polynomial smoothing of A x = b, preconditioned by D = diag(A) (Saad, "Iterative methods
// for sparse linear systems", 2003, Algorithm 12.1): `degree` steps that damp the components of D⁻¹A's
// eigenvalues in [λmax / ratio, λmax] and reduce the rest. x ends as x₀ + q(D⁻¹A) D⁻¹ (b − A x₀) for a
// fixed polynomial q, so the error propagation I − q(D⁻¹A) D⁻¹A is self-adjoint in the A inner product:
// the same smoother before and after the coarse correction keeps the V-cycle symmetric. λmax must not
// be below the true largest eigenvalue (a larger one only weakens the smoothing). Degree 1 is damped
// Jacobi with ω = 2 / (λmax (1 + 1 / ratio)). Front-end kernels only (the SpMVs fused with the
// residual's update, spmv_axpby and jacobi_step; axpby, pointwise_multiply, copy).
class ChebyshevSmoother {
 public:
  // a: the level's matrix on exec (kept by reference: it must outlive the smoother); d its diagonal, one
  // entry per entry of the level's vectors.
  ChebyshevSmoother(const Executor& exec, const LevelOperator& a, const std::vector<double>& d, double lambda_max,
                    double ratio, int degree);
  // Vectors of the level's length a smoother of this degree holds: D⁻¹/θ, and from degree 2 also D⁻¹
  // and its residual, step and work vector (degree 1 is one pointwise product from zero, or one fused
  // Jacobi pass from a start).
  static int vectors(int degree) { return degree > 1 ? 5 : 1; }
  // x ← the smoothed iterate, from x = 0 when zero_guess (x is then not read), else from x (degree 2 and
  // more), as its kernel calls in order, each handed to step(kernel, operation, rows, call) (the front
  // end's name, what it computes, the entries it writes, and a callable that makes the call) instead of
  // being made here: RunNow makes them (the cycle); Amg::level_calls keeps them to time each one alone.
  // b and x: the level's rows, distinct. The callables capture b, x and the smoother by reference and
  // their scalars by value.
  template <class Step>
  void steps(const Vector& b, Vector& x, bool zero_guess, Step&& step) const;
  // x ← the smoothed iterate from `start` (which it may overwrite), into x ≠ start, as calls to `step`:
  // with degree 1 one damped-Jacobi pass (LevelOperator::jacobi_step) that reads start and writes x.
  template <class Step>
  void steps_from(const Vector& b, Vector& start, Vector& x, Step&& step) const;
  int degree() const { return degree_; }

 private:
  Executor exec_;
  const LevelOperator& a_;
  int degree_;
  double theta_, delta_;           // centre and half-width of the interval
  Vector inverse_diagonal_;        // D⁻¹ (empty with degree 1, as the three below)
  Vector scaled_inverse_diagonal_; // D⁻¹ / θ: the first step's
  mutable Vector residual_, direction_, work_;
};

// With r the residual and d the step: d₀ = D⁻¹ r₀ / θ; d_k = ρ_k ρ_{k−1} d_{k−1} + (2 ρ_k / δ) D⁻¹ r_k
// with ρ₀ = δ / θ, ρ_k = 1 / (2 θ / δ − ρ_{k−1}); x ← x + d_k and r ← r − A d_k after each.
template <class Step>
void ChebyshevSmoother::steps(const Vector& b, Vector& x, bool zero_guess, Step&& step) const {
  const index_t n = scaled_inverse_diagonal_.size();
  bool residual_is_b = true;  // r₀ = b from x = 0
  if (zero_guess) {
    if (degree_ == 1) {
      step("pointwise", "x = D^-1 b / theta", n, [&] { pointwise_multiply(exec_, scaled_inverse_diagonal_, b, x); });
      return;
    }
    step("pointwise", "d = D^-1 b / theta", n,
         [&] { pointwise_multiply(exec_, scaled_inverse_diagonal_, b, direction_); });
    step("copy", "x = d", n, [&] { copy(exec_, direction_, x); });
  } else {
    step("spmv_axpby", "r = b - A x", n, [&] { a_.apply_axpby(x, 1.0, b, -1.0, residual_); });
    residual_is_b = false;
    step("pointwise", "d = D^-1 r / theta", n,
         [&] { pointwise_multiply(exec_, scaled_inverse_diagonal_, residual_, direction_); });
    step("axpby", "x = x + d", n, [&] { axpby(exec_, 1.0, direction_, 1.0, x); });
  }
  double rho = delta_ / theta_;
  for (int k = 1; k < degree_; ++k) {
    const Vector* from = residual_is_b ? &b : &residual_;
    step("spmv_axpby", residual_is_b ? "r = b - A d" : "r = r - A d", n,
         [&, from] { a_.apply_axpby(direction_, 1.0, *from, -1.0, residual_); });
    residual_is_b = false;
    const double rho_next = 1.0 / (2.0 * theta_ / delta_ - rho);
    step("pointwise", "t = D^-1 r", n, [&] { pointwise_multiply(exec_, inverse_diagonal_, residual_, work_); });
    step("axpby", "d = c t + c' d", n, [&, c = 2.0 * rho_next / delta_, c_old = rho_next * rho] {
      axpby(exec_, c, work_, c_old, direction_);
    });
    step("axpby", "x = x + d", n, [&] { axpby(exec_, 1.0, direction_, 1.0, x); });
    rho = rho_next;
  }
}

template <class Step>
void ChebyshevSmoother::steps_from(const Vector& b, Vector& start, Vector& x, Step&& step) const {
  const index_t n = scaled_inverse_diagonal_.size();
  if (degree_ == 1) {
    step("jacobi_step", "x = e + D^-1 (b - A e) / theta", n,
         [&] { a_.jacobi_step(start, b, scaled_inverse_diagonal_, x); });
    return;
  }
  step("copy", "x = e", n, [&] { copy(exec_, start, x); });
  steps(b, x, false, step);
}

}  // namespace miniapp::amg
