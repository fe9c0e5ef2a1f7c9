#include "solvers/jacobi.hpp"

#include <string>
#include <vector>

#include "operators/kernels/vector_ops.hpp"

namespace miniapp {

namespace {

std::vector<double> inverse_diagonal(const CsrMatrix& a) {
  if (a.rows != a.cols)
    throw Error("Jacobi: the matrix is " + std::to_string(a.rows) + " × " + std::to_string(a.cols) +
                ", a preconditioner needs a square one");
  std::vector<double> inv(static_cast<std::size_t>(a.rows));
  for (index_t r = 0; r < a.rows; ++r) {
    double diag = 0;
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      if (a.col[k] == r) diag = a.val[k];
    if (!(diag > 0))
      throw Error("Jacobi: row " + std::to_string(r) + " has diagonal " + std::to_string(diag) +
                  "; the matrix must have a positive diagonal (solve −L p = b, not L p = b)");
    inv[r] = 1.0 / diag;
  }
  return inv;
}

}  // namespace

Jacobi::Jacobi(const Executor& exec, const CsrMatrix& a)
    : exec_(exec), inverse_diagonal_(Vector::from_host(exec, inverse_diagonal(a))) {}

void Jacobi::apply(const Vector& r, Vector& z) const { pointwise_multiply(exec_, inverse_diagonal_, r, z); }

}  // namespace miniapp
