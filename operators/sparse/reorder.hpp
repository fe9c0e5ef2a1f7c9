#pragma once
#include <vector>

#include "operators/sparse/csr_matrix.hpp"

namespace miniapp {

// A permutation of n items: new_to_old[i] is the old index of the item now at i.
struct Permutation {
  std::vector<index_t> new_to_old;
  std::vector<index_t> old_to_new;

  static Permutation identity(index_t n);
  static Permutation from_new_to_old(std::vector<index_t> new_to_old);
  index_t size() const { return static_cast<index_t>(new_to_old.size()); }
};

// The row order of the thesis (§2.4, "Unknowns reordering") for a structurally symmetric matrix:
// rows grouped by non-zero count (longest first, so boundary rows go last), then reverse
// Cuthill-McKee inside each group for bandwidth. `groups`, if given, is a coarser grouping that takes
// precedence (e.g. inner / interface / halo once there are subdomains): rows of group 0 first, etc.
Permutation row_grouping_rcm(const CsrMatrix& a, const std::vector<index_t>* groups = nullptr);
// The same grouping (by `groups` if given, then by non-zero count) with the rows of each group left
// in their given order: for matrices whose order is already local (a generated mesh's lattice order,
// mesh::Mesh::cells_in_lattice_order).
Permutation row_grouping(const CsrMatrix& a, const std::vector<index_t>* groups = nullptr);
// The cell order of the operators: row_grouping when the cells are already in a generator's lattice
// order (mesh::Mesh::cells_in_lattice_order), row_grouping_rcm otherwise.
Permutation cell_row_order(const CsrMatrix& a, bool cells_in_lattice_order,
                           const std::vector<index_t>* groups = nullptr);

// P A Pᵀ: rows and columns renumbered by the same permutation.
CsrMatrix permute_symmetric(const CsrMatrix& a, const Permutation& p);
// Rows renumbered by `rows`, columns by `cols` (for rectangular operators such as cells × faces).
CsrMatrix permute(const CsrMatrix& a, const Permutation& rows, const Permutation& cols);
// Rows renumbered, columns as they are; columns renumbered (each row sorted again), rows as they are.
CsrMatrix permute_rows(const CsrMatrix& a, const Permutation& rows);
CsrMatrix permute_columns(const CsrMatrix& a, const Permutation& cols);
// y[new] = x[old].
std::vector<double> permute_vector(const std::vector<double>& x, const Permutation& p);
// x[old] = y[new].
std::vector<double> unpermute_vector(const std::vector<double>& y, const Permutation& p);

}  // namespace miniapp
