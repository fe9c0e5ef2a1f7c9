#include "solvers/jacobi.hpp"

#include <vector>

#include "operators/kernels/vector_ops.hpp"
#include "solvers/matrix_checks.hpp"

namespace miniapp {

namespace {

std::vector<double> inverse_diagonal(const CsrMatrix& a) {
  std::vector<double> inv = positive_diagonal(a, "Jacobi");
  for (double& d : inv) d = 1.0 / d;
  return inv;
}

}  // namespace

Jacobi::Jacobi(const Executor& exec, const CsrMatrix& a)
    : exec_(exec), inverse_diagonal_(Vector::from_host(exec, inverse_diagonal(a))) {}

void Jacobi::apply(const Vector& r, Vector& z) const { pointwise_multiply(exec_, inverse_diagonal_, r, z); }

}  // namespace miniapp
