#include "solvers/pcg.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "operators/kernels/dot.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp {

Pcg::Pcg(const Executor& exec, index_t rows)
    : exec_(exec), rows_(rows), r_(exec, rows), z_(exec, rows), p_(exec, rows), q_(exec, rows),
      rhs_(exec, rows), ones_(exec, rows) {
  fill(exec_, 1.0, ones_);
}

// v ← v − mean(v) 1: removes the null-space component of a singular system (one DOT, one AXPY).
void Pcg::remove_mean(Vector& v) {
  const double mean = dot(exec_, ones_, v) / static_cast<double>(rows_);
  axpby(exec_, -mean, ones_, 1.0, v);
}

namespace {

void check_sizes(const DeviceSell& a, const Vector& b, const Vector& x, index_t rows) {
  if (a.rows() != rows || a.cols() != rows || b.size() != rows || x.size() != rows) {
    std::ostringstream msg;
    msg << "Pcg::solve: sizes do not match: solver " << rows << ", matrix " << a.rows() << " × " << a.cols()
        << ", b " << b.size() << ", x " << x.size();
    throw Error(msg.str());
  }
}

std::string cap_warning(int iterations, double residual, const PcgOptions& options) {
  std::ostringstream msg;
  msg << "PCG did not converge: relative residual " << residual << " (tolerance " << options.tolerance
      << ") after " << iterations << " iterations (cap " << options.max_iterations << ")";
  return msg.str();
}

std::string breakdown_warning(int iteration, double curvature) {
  std::ostringstream msg;
  msg << "PCG broke down at iteration " << iteration << ": pᵀAp = " << curvature
      << " is not positive (the matrix is not positive definite, or the data contain NaN)";
  return msg.str();
}

}  // namespace

// Memory traffic per iteration, n rows, sELL with E stored entries and S slices (8-byte values,
// 4-byte indices): SpMV 12 E + 4 S + 16 n; p·q 16 n; x and r updates 2 × 24 n; Jacobi z = D⁻¹ r 24 n;
// fused r·r, r·z 16 n (r read once); p = z + β p 24 n. Total ≈ 12 E + 144 n bytes: for a 7-point
// Laplacian (E ≈ 7 n) about 228 bytes per row, of which the SpMV is 100.
PcgResult Pcg::solve(const DeviceSell& a, const Preconditioner& m, const Vector& b, Vector& x,
                     const PcgOptions& options) {
  check_sizes(a, b, x, rows_);
  copy(exec_, b, rhs_);
  if (options.singular) {
    // A consistent right-hand side (orthogonal to the null space) and a guess without its null-space
    // component; r stays orthogonal to the constants up to round-off since every column of A sums to 0.
    remove_mean(rhs_);
    remove_mean(x);
  }
  const double b_norm = std::sqrt(dot(exec_, rhs_, rhs_));
  PcgResult result;
  if (b_norm == 0) {
    fill(exec_, 0.0, x);  // the solution of A x = 0 (of minimum norm in singular mode)
    result.converged = true;
    return result;
  }
  spmv(exec_, a, x, q_);
  waxpby(exec_, 1.0, rhs_, -1.0, q_, r_);  // r = b − A x
  result.relative_residual = std::sqrt(dot(exec_, r_, r_)) / b_norm;
  m.apply(r_, z_);
  double rho = dot(exec_, r_, z_);
  copy(exec_, z_, p_);
  while (result.relative_residual > options.tolerance && result.iterations < options.max_iterations) {
    spmv(exec_, a, p_, q_);
    const double curvature = dot(exec_, p_, q_);
    if (!(curvature > 0)) {
      result.warning = breakdown_warning(result.iterations, curvature);
      break;
    }
    const double alpha = rho / curvature;
    axpby(exec_, alpha, p_, 1.0, x);
    axpby(exec_, -alpha, q_, 1.0, r_);
    m.apply(r_, z_);
    const Vector* lhs[] = {&r_, &r_};
    const Vector* rhs[] = {&r_, &z_};
    double dots[2];
    multi_dot(exec_, lhs, rhs, dots);
    result.relative_residual = std::sqrt(dots[0]) / b_norm;
    const double beta = dots[1] / rho;
    rho = dots[1];
    axpby(exec_, 1.0, z_, beta, p_);
    ++result.iterations;
  }
  if (options.singular) remove_mean(x);
  result.converged = result.relative_residual <= options.tolerance;
  if (!result.converged && result.warning.empty())
    result.warning = cap_warning(result.iterations, result.relative_residual, options);
  return result;
}

}  // namespace miniapp
