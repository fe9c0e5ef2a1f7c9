#pragma once
// −L of closed boxes for the AMG tests: every boundary a wall, so −L is singular with the constants as
// its null space.
#include <string>
#include <utility>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::test {

inline CsrMatrix minus_laplacian(const mesh::Mesh& m) {
  CsrMatrix a = fv::laplacian_matrix(m, mesh::compute_geometry(m));
  for (double& v : a.val) v = -v;
  return a;
}

// n³ boxes of "hex" or "tet" cells (cells clustered along x by `stretch`), else n² triangles extruded
// n layers.
inline CsrMatrix box_poisson(const std::string& cells, index_t n, double stretch = 1.5) {
  const mesh::BoxSpec spec{.cells = {n, n, n}, .stretch = {stretch, 0, 0}};
  if (cells == "hex") return minus_laplacian(mesh::make_hex_box(spec));
  if (cells == "tet") return minus_laplacian(mesh::make_tet_box(spec));
  return minus_laplacian(mesh::extrude(mesh::make_tri_rect({.cells = {n, n}}), {.layers = n, .periodic = false}));
}

// Two copies of `one` side by side with no link between them: a matrix of two floating pieces.
inline CsrMatrix side_by_side(const CsrMatrix& one) {
  std::vector<Triplet> t;
  for (int copy = 0; copy < 2; ++copy)
    for (index_t i = 0; i < one.rows; ++i)
      for (index_t k = one.row_ptr[i]; k < one.row_ptr[i + 1]; ++k)
        t.push_back({i + copy * one.rows, one.col[k] + copy * one.rows, one.val[k]});
  return csr_from_triplets(2 * one.rows, 2 * one.rows, std::move(t));
}

}  // namespace miniapp::test
