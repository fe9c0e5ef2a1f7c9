#include "operators/fv/diffusion_operator.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "operators/fv/coefficient_map.hpp"
#include "operators/fv/face_gradient.hpp"

namespace miniapp::fv {

namespace {

CsrMatrix minus_velocity_gradient(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                  const FlowOperators& ops) {
  CsrMatrix minus_gradient =
      face_gradient_matrix(mesh, geometry, &ops.boundaries, GradientOf::velocity, &ops.cell_order);
  for (double& v : minus_gradient.val) v = -v;
  return minus_gradient;
}

// M Gs_u − M Gs_p on the diagonal: A_f (g_u − g_p) at each boundary face's owner, g = −1/δn_f where
// the face's condition fixes that unknown. Interior faces are the same in both.
std::vector<double> boundary_diagonal_difference(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                                 const FlowOperators& ops) {
  ops.boundaries.require_matches(mesh);
  std::vector<double> difference(static_cast<std::size_t>(mesh.cell_count()), 0.0);
  for (std::size_t p = 0; p < mesh.patches.size(); ++p) {
    const BoundaryKind kind = ops.boundaries.by_patch[p].kind;
    if (fixes_velocity(kind) == fixes_pressure(kind)) continue;
    const mesh::Patch& patch = mesh.patches[p];
    for (index_t f = patch.first_face; f < patch.first_face + patch.face_count; ++f) {
      const double g = -geometry.face_area[f] * inverse_normal_distance(mesh, geometry, f);
      difference[ops.cell_order.old_to_new[mesh.face_owner[f]]] += fixes_velocity(kind) ? g : -g;
    }
  }
  return difference;
}

}  // namespace

// D(ν_s) = M diag(ν_s) (−Gs_u).
CsrMatrix diffusion_map(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, const FlowOperators& ops,
                        const CsrMatrix& pattern, const SellLayout& layout) {
  return detail::coefficient_map(ops.divergence, minus_velocity_gradient(mesh, geometry, ops), pattern, layout,
                                 "diffusion_map");
}

std::vector<double> diffusion_values(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                     const FlowOperators& ops, const CsrMatrix& pattern, const SellLayout& layout,
                                     double viscosity) {
  const CsrMatrix& l = ops.laplacian;
  detail::require_layout_of(pattern, layout, "diffusion_values");
  if (l.rows != pattern.rows)
    throw Error("diffusion_values: a Laplacian of " + std::to_string(l.rows) + " rows for a momentum pattern of " +
                std::to_string(pattern.rows));
  const std::vector<double> boundary = boundary_diagonal_difference(mesh, geometry, ops);
  std::vector<double> values(static_cast<std::size_t>(layout.stored_entries()), 0.0);
  index_t first_missing = pattern.rows;
  // Both rows sorted by column, L's a subset of the pattern's (which adds a missing diagonal).
#pragma omp parallel for schedule(static) reduction(min : first_missing)
  for (index_t i = 0; i < pattern.rows; ++i) {
    index_t q = l.row_ptr[i];
    for (index_t k = 0; k < pattern.row_length(i); ++k) {
      const index_t j = pattern.col[pattern.row_ptr[i] + k];
      double entry = 0.0;
      if (q < l.row_ptr[i + 1] && l.col[q] == j) entry = l.val[q++];
      if (j == i) entry += boundary[i];
      values[layout.position(i, k)] = -viscosity * entry;
    }
    if (q < l.row_ptr[i + 1]) first_missing = std::min(first_missing, i);
  }
  if (first_missing < pattern.rows)
    throw Error("diffusion_values: row " + std::to_string(first_missing) +
                " of the Laplacian has an entry outside the momentum pattern");
  return values;
}

}  // namespace miniapp::fv
