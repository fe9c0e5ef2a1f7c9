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
};

// x = A⁺ b on the coarsest level (b is only read).
class CoarseSolve {
 public:
  virtual ~CoarseSolve() = default;
  virtual void solve(const Vector& b, Vector& x) const = 0;
};

}  // namespace miniapp::amg
