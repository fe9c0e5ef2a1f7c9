// E_C and E_D (thesis eq. 2.13-2.14): constant maps from a face field to the sELL values of an
// operator with the momentum pattern.
#include <algorithm>
#include <string>
#include <vector>

#include "operators/fv/face_gradient.hpp"
#include "operators/fv/flow_assembly.hpp"

namespace miniapp::fv {
namespace {

void require_layout_of(const CsrMatrix& pattern, const SellMatrix& layout, const char* caller) {
  bool same = layout.rows == pattern.rows && layout.cols == pattern.cols &&
              layout.row_length.size() == static_cast<std::size_t>(pattern.rows);
  for (index_t r = 0; same && r < pattern.rows; ++r) same = layout.row_length[r] == pattern.row_length(r);
  if (!same)
    throw Error(std::string(caller) + ": the sELL layout (" + std::to_string(layout.rows) + "x" +
                std::to_string(layout.cols) + ") is not a conversion of the momentum pattern (" +
                std::to_string(pattern.rows) + "x" + std::to_string(pattern.cols) + ", same row lengths)");
}

// ord_i(j): the rank of column j in the sorted row i of the pattern.
index_t rank_in_row(const CsrMatrix& pattern, index_t i, index_t j, const char* caller) {
  const auto first = pattern.col.begin() + pattern.row_ptr[i], last = pattern.col.begin() + pattern.row_ptr[i + 1];
  const auto it = std::lower_bound(first, last, j);
  if (it == last || *it != j)
    throw Error(std::string(caller) + ": entry (" + std::to_string(i) + ", " + std::to_string(j) +
                ") is missing from the momentum pattern");
  return static_cast<index_t>(it - first);
}

// The operator A(φ_s) = M diag(φ_s) B (M cells × faces, B faces × cells, cells in ops order) is linear
// in the face field φ_s: A_ij = Σ_f M_if φ_f B_fj. Its map E puts M_if B_fj at (position of (i, j) in
// the layout, f); duplicates (the diagonal gets one term per face) are summed.
CsrMatrix coefficient_map(const CsrMatrix& m, const CsrMatrix& b, const FlowOperators& ops, const SellMatrix& layout,
                          const char* caller) {
  const CsrMatrix& pattern = ops.momentum_pattern;
  require_layout_of(pattern, layout, caller);
  std::vector<Triplet> triplets;
  for (index_t i = 0; i < m.rows; ++i)
    for (index_t p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p) {
      const index_t f = m.col[p];
      for (index_t q = b.row_ptr[f]; q < b.row_ptr[f + 1]; ++q) {
        const index_t k = rank_in_row(pattern, i, b.col[q], caller);
        triplets.push_back({layout.position(i, k), f, m.val[p] * b.val[q]});
      }
    }
  return csr_from_triplets(layout.stored_entries(), m.cols, std::move(triplets));
}

}  // namespace

// C(u_s) = M diag(u_s) Π_c: (Cφ)_i = Σ_f ±A_f u_f (φ at face f), thesis eq. 2.12.
CsrMatrix convection_map(const mesh::Mesh& mesh, const mesh::MeshGeometry&, const FlowOperators& ops,
                         const SellMatrix& layout) {
  const Permutation faces = Permutation::identity(mesh.face_count());
  const CsrMatrix interpolation =
      permute(detail::convective_interpolation_matrix(mesh, ops.boundaries), faces, ops.cell_order);
  return coefficient_map(ops.divergence, interpolation, ops, layout, "convection_map");
}

// D(ν_s) = M diag(ν_s) (−Gs_u).
CsrMatrix diffusion_map(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, const FlowOperators& ops,
                        const SellMatrix& layout) {
  const Permutation faces = Permutation::identity(mesh.face_count());
  CsrMatrix minus_gradient =
      permute(face_gradient_matrix(mesh, geometry, &ops.boundaries, GradientOf::velocity), faces, ops.cell_order);
  for (double& v : minus_gradient.val) v = -v;
  return coefficient_map(ops.divergence, minus_gradient, ops, layout, "diffusion_map");
}

}  // namespace miniapp::fv
