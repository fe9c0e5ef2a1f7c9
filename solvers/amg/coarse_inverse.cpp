#include "solvers/amg/coarse_inverse.hpp"

#include <Eigen/Dense>
#include <sstream>

#include "core/error.hpp"

namespace miniapp::amg {

namespace {
constexpr double zero_eigenvalue = 1e-9;  // relative to the largest
}

CsrMatrix dense_pseudo_inverse(const CsrMatrix& a) {
  const Eigen::Index n = a.rows;
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) dense(i, a.col[k]) += a.val[k];
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(dense);
  if (eigen.info() != Eigen::Success) throw Error("AMG: the eigen-decomposition of the coarsest matrix failed");
  const Eigen::VectorXd& lambda = eigen.eigenvalues();  // ascending
  const double largest = lambda.size() > 0 ? lambda(n - 1) : 0.0;
  const double tolerance = zero_eigenvalue * std::abs(largest);
  if (n > 0 && lambda(0) < -tolerance) {
    std::ostringstream msg;
    msg << "AMG: the coarsest matrix has the eigenvalue " << lambda(0) << " (largest " << largest
        << "): the matrix is not positive semi-definite";
    throw Error(msg.str());
  }
  Eigen::VectorXd inverse(n);
  for (Eigen::Index i = 0; i < n; ++i) inverse(i) = lambda(i) > tolerance ? 1.0 / lambda(i) : 0.0;
  const Eigen::MatrixXd& v = eigen.eigenvectors();
  Eigen::MatrixXd pinv = v * inverse.asDiagonal() * v.transpose();
  pinv = 0.5 * (pinv + pinv.transpose()).eval();
  CsrMatrix result;
  result.rows = result.cols = a.rows;
  result.row_ptr.resize(static_cast<std::size_t>(n) + 1);
  result.col.reserve(static_cast<std::size_t>(n * n));
  result.val.reserve(static_cast<std::size_t>(n * n));
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      result.col.push_back(static_cast<index_t>(j));
      result.val.push_back(pinv(i, j));
    }
    result.row_ptr[i + 1] = static_cast<index_t>(result.col.size());
  }
  return result;
}

}  // namespace miniapp::amg
