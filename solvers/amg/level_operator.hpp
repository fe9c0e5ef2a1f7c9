#pragma once
#include "operators/backend/array.hpp"

namespace miniapp::amg {

// y = A x on one level of the hierarchy: its matrix (what the smoother multiplies by) or a transfer
// between two levels (P, R). x is not const: on a level split over ranks, x's halo entries are brought
// up to date before they are read. Vectors have the level's local length (owned, then halo).
class LevelOperator {
 public:
  virtual ~LevelOperator() = default;
  virtual void apply(Vector& x, Vector& y) const = 0;
  // y = α u + β M x in one pass over M (spmv_axpby), at the rows apply writes; u may be y.
  virtual void apply_axpby(Vector& x, double alpha, const Vector& u, double beta, Vector& y) const = 0;
  // y = x + w ⊙ (b − M x) for a level's square M in one pass (jacobi_step), at the rows apply writes;
  // y ≠ x.
  virtual void jacobi_step(Vector& x, const Vector& b, const Vector& w, Vector& y) const = 0;
};

// x = A⁺ b on the coarsest level (b is only read).
class CoarseSolve {
 public:
  virtual ~CoarseSolve() = default;
  virtual void solve(const Vector& b, Vector& x) const = 0;
};

}  // namespace miniapp::amg
