#pragma once
#include <string_view>
#include <vector>

#include "operators/sparse/csr_matrix.hpp"

namespace miniapp {

// The diagonal of a square matrix whose diagonal is strictly positive (an SPD matrix, or −L of a
// Laplacian). Throws miniapp::Error, prefixed by `who`, naming the first row that is not.
std::vector<double> positive_diagonal(const CsrMatrix& a, std::string_view who);

// The same check of a diagonal already extracted (0 where a row has no diagonal entry).
void require_positive_diagonal(const std::vector<double>& diagonal, std::string_view who);

// The connected components of a symmetric matrix's graph that are "floating": every row of the
// component sums to zero (relative to its diagonal), so the constants on it are a null vector, as on
// a Laplacian with only Neumann or periodic boundaries. Returns one row of each such component.
std::vector<index_t> floating_components(const CsrMatrix& a);

// Throws miniapp::Error, prefixed by `who`, when more than one component floats: the null space is
// then more than the constants (a mesh in several disconnected pieces), which a solver that removes
// one mean cannot handle.
void check_single_null_vector(const CsrMatrix& a, std::string_view who);

}  // namespace miniapp
