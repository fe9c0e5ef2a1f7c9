#pragma once
#include "operators/backend/array.hpp"

namespace miniapp::amg {

// y = A x on one level of the hierarchy: its matrix (what the smoother multiplies by) or a transfer
// between two levels (P, R). x is not const: on a level split over ranks, x's halo entries are brought
// up to date before they are read. Vectors have the level's local length (owned, then halo); y's
// first rows() entries are written, the rest left as they were.
class LevelOperator {
 public:
  virtual ~LevelOperator() = default;
  virtual void apply(Vector& x, Vector& y) const = 0;
  // The rows of y written.
  virtual index_t rows() const = 0;
  // y = α u + β A x (u may be y). By default apply, then an AXPBY of the rows; a matrix in double on
  // one rank does both in one pass (spmv_axpby).
  virtual void apply_axpby(Vector& x, double alpha, const Vector& u, double beta, Vector& y) const;
  // y = x + w ⊙ (b − A x), y ≠ x: a damped-Jacobi step. By default apply and three vector kernels on
  // the rows; a matrix in double on one rank does it in one pass (jacobi_step).
  virtual void jacobi_step(Vector& x, const Vector& b, const Vector& w, Vector& y) const;
};

// x = A⁺ b on the coarsest level (b is only read).
class CoarseSolve {
 public:
  virtual ~CoarseSolve() = default;
  virtual void solve(const Vector& b, Vector& x) const = 0;
};

}  // namespace miniapp::amg
