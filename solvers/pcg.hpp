#pragma once
#include <string>

#include "operators/backend/device_matrix.hpp"
#include "solvers/preconditioner.hpp"

namespace miniapp {

struct PcgOptions {
  double tolerance = 1e-8;   // stop when ‖r‖₂ / ‖b‖₂ ≤ tolerance
  int max_iterations = 1000;
  // A is symmetric positive semi-definite with the constants as its null space (a pure-Neumann or
  // periodic Laplacian): b, the initial guess and the solution are projected to zero mean.
  bool singular = false;
};

struct PcgResult {
  int iterations = 0;
  double relative_residual = 0;  // ‖b − A x‖₂ / ‖b‖₂ of the recursively updated residual
  bool converged = false;
  std::string warning;  // empty when converged
};

// Preconditioned conjugate gradients for A x = b with A symmetric positive definite (or semi-definite
// with constant null space, see PcgOptions::singular). Work vectors are allocated once by the
// constructor and reused by every solve (the pressure system is solved once per time step).
// Only front-end kernels are called (spmv, axpby, waxpby, dot, multi_dot, pointwise via the
// preconditioner), so the same code runs on every backend. Local to one rank.
class Pcg {
 public:
  // `rows`: the system size; the vectors passed to solve must have it and live on `exec`.
  Pcg(const Executor& exec, index_t rows);

  // Solves A x = b starting from the incoming x; on return x holds the last iterate (zero mean in
  // singular mode). Does not throw when the iteration cap is hit: the result says so.
  PcgResult solve(const DeviceSell& a, const Preconditioner& m, const Vector& b, Vector& x,
                  const PcgOptions& options);

 private:
  void remove_mean(Vector& v);

  Executor exec_;
  index_t rows_;
  Vector r_, z_, p_, q_, rhs_, ones_;
};

}  // namespace miniapp
