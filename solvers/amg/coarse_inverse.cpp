#include "solvers/amg/coarse_inverse.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <sstream>

#include "core/error.hpp"

namespace miniapp::amg {

namespace {

constexpr double zero_eigenvalue = 1e-9;  // relative to the component's largest

// The connected components of a's graph, each as its sorted rows.
std::vector<std::vector<index_t>> components(const CsrMatrix& a) {
  std::vector<bool> seen(static_cast<std::size_t>(a.rows), false);
  std::vector<std::vector<index_t>> result;
  for (index_t start = 0; start < a.rows; ++start) {
    if (seen[start]) continue;
    std::vector<index_t> rows{start};
    seen[start] = true;
    for (std::size_t next = 0; next < rows.size(); ++next)
      for (index_t k = a.row_ptr[rows[next]]; k < a.row_ptr[rows[next] + 1]; ++k)
        if (!seen[a.col[k]]) {
          seen[a.col[k]] = true;
          rows.push_back(a.col[k]);
        }
    std::sort(rows.begin(), rows.end());
    result.push_back(std::move(rows));
  }
  return result;
}

// The pseudo-inverse of a's block on `rows` (a component: no entry leaves it).
Eigen::MatrixXd block_pseudo_inverse(const CsrMatrix& a, const std::vector<index_t>& rows) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (index_t k = a.row_ptr[rows[i]]; k < a.row_ptr[rows[i] + 1]; ++k) {
      const auto j = std::lower_bound(rows.begin(), rows.end(), a.col[k]) - rows.begin();
      dense(i, j) += a.val[k];
    }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(dense);
  if (eigen.info() != Eigen::Success) throw Error("AMG: the eigen-decomposition of the coarsest matrix failed");
  const Eigen::VectorXd& lambda = eigen.eigenvalues();  // ascending
  const double largest = lambda(n - 1), tolerance = zero_eigenvalue * std::abs(largest);
  if (lambda(0) < -tolerance) {
    std::ostringstream msg;
    msg << "AMG: the coarsest matrix has the eigenvalue " << lambda(0) << " (largest " << largest
        << "): the matrix is not positive semi-definite";
    throw Error(msg.str());
  }
  Eigen::VectorXd inverse(n);
  for (Eigen::Index i = 0; i < n; ++i) inverse(i) = lambda(i) > tolerance ? 1.0 / lambda(i) : 0.0;
  const Eigen::MatrixXd& v = eigen.eigenvectors();
  const Eigen::MatrixXd pinv = v * inverse.asDiagonal() * v.transpose();
  return 0.5 * (pinv + pinv.transpose());
}

}  // namespace

// Component by component: the pseudo-inverse of a block-diagonal matrix is block diagonal, and
// storing it so keeps rows of different components apart exactly (a rank's halo rows, identity rows
// of the preconditioned block, must not pick up round-off from its owned rows, nor their garbage).
CsrMatrix dense_pseudo_inverse(const CsrMatrix& a) {
  std::vector<Triplet> t;
  for (const std::vector<index_t>& rows : components(a)) {
    const Eigen::MatrixXd pinv = block_pseudo_inverse(a, rows);
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t j = 0; j < rows.size(); ++j)
        t.push_back({rows[i], rows[j], pinv(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j))});
  }
  return csr_from_triplets(a.rows, a.cols, std::move(t));
}

}  // namespace miniapp::amg
