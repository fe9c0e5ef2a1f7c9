#include "solvers/amg/level_operator.hpp"

#include "operators/kernels/vector_ops.hpp"

namespace miniapp::amg {

void LevelOperator::apply_axpby(Vector& x, double alpha, const Vector& u, double beta, Vector& y) const {
  apply(x, y);
  Vector rows_of_y = y.window(0, rows());
  waxpby(y.executor(), alpha, u.window(0, rows()), beta, rows_of_y, rows_of_y);
}

void LevelOperator::jacobi_step(Vector& x, const Vector& b, const Vector& w, Vector& y) const {
  const Executor& exec = y.executor();
  apply(x, y);
  Vector rows_of_y = y.window(0, rows());
  waxpby(exec, 1.0, b.window(0, rows()), -1.0, rows_of_y, rows_of_y);
  pointwise_multiply(exec, w.window(0, rows()), rows_of_y, rows_of_y);
  axpby(exec, 1.0, x.window(0, rows()), 1.0, rows_of_y);
}

}  // namespace miniapp::amg
