#include "solvers/matrix_checks.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace miniapp {

std::vector<double> positive_diagonal(const CsrMatrix& a, std::string_view who) {
  if (a.rows != a.cols)
    throw Error(std::string(who) + ": the matrix is " + std::to_string(a.rows) + " × " + std::to_string(a.cols) +
                ", a preconditioner needs a square one");
  std::vector<double> diag(static_cast<std::size_t>(a.rows));
  for (index_t r = 0; r < a.rows; ++r) {
    double d = 0;
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      if (a.col[k] == r) d = a.val[k];
    if (!(d > 0))
      throw Error(std::string(who) + ": row " + std::to_string(r) + " has diagonal " + std::to_string(d) +
                  "; the matrix must have a positive diagonal (solve −L p = b, not L p = b)");
    diag[r] = d;
  }
  return diag;
}

namespace {

// Whether row r sums to zero up to round-off relative to its largest entry.
bool zero_row_sum(const CsrMatrix& a, index_t r) {
  double sum = 0, largest = 0;
  for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
    sum += a.val[k];
    largest = std::max(largest, std::abs(a.val[k]));
  }
  return std::abs(sum) <= 1e-10 * largest * static_cast<double>(a.row_length(r));
}

}  // namespace

std::vector<index_t> floating_components(const CsrMatrix& a) {
  std::vector<bool> seen(static_cast<std::size_t>(a.rows), false);
  std::vector<index_t> stack, floating;
  for (index_t start = 0; start < a.rows; ++start) {
    if (seen[start]) continue;
    bool floats = true;
    seen[start] = true;
    stack.push_back(start);
    while (!stack.empty()) {
      const index_t r = stack.back();
      stack.pop_back();
      floats = floats && zero_row_sum(a, r);
      for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
        if (a.val[k] != 0 && !seen[a.col[k]]) {
          seen[a.col[k]] = true;
          stack.push_back(a.col[k]);
        }
    }
    if (floats) floating.push_back(start);
  }
  return floating;
}

void check_single_null_vector(const CsrMatrix& a, std::string_view who) {
  const std::vector<index_t> floating = floating_components(a);
  if (floating.size() <= 1) return;
  throw Error(std::string(who) + ": the matrix has " + std::to_string(floating.size()) +
              " disconnected pieces without a fixed value (rows " + std::to_string(floating[0]) + " and " +
              std::to_string(floating[1]) +
              " lie in two of them), so its null space holds more than the constants: the mesh is not connected; "
              "mesh each piece as a case of its own or join them");
}

}  // namespace miniapp
