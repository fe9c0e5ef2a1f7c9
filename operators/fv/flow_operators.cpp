#include "operators/fv/flow_operators.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "operators/fv/divergence.hpp"
#include "operators/fv/face_gradient.hpp"
#include "operators/fv/flow_assembly.hpp"

namespace miniapp::fv {
namespace {

// diag(s) A.
CsrMatrix scale_rows(CsrMatrix a, const std::vector<double>& s) {
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) a.val[p] *= s[r];
  return a;
}

CsrMatrix absolute(CsrMatrix a) {
  for (double& v : a.val) v = std::abs(v);
  return a;
}

// Γ_d = diag(n_d) Π_c. Entries of faces with n_d = 0 exactly (axis-aligned faces of hexahedra) are
// dropped: on a hex mesh they would be two thirds of Γ's non-zeros and only cost SpMV work.
CsrMatrix normal_component(const CsrMatrix& interpolation, const mesh::MeshGeometry& geometry, int d) {
  std::vector<Triplet> triplets;
  triplets.reserve(interpolation.col.size());
  for (index_t f = 0; f < interpolation.rows; ++f) {
    const double n = geometry.face_normal[f][d];
    if (n == 0) continue;
    for (index_t p = interpolation.row_ptr[f]; p < interpolation.row_ptr[f + 1]; ++p)
      triplets.push_back({f, interpolation.col[p], n * interpolation.val[p]});
  }
  return csr_from_triplets(interpolation.rows, interpolation.cols, std::move(triplets));
}

std::vector<double> checked_volumes(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry) {
  for (index_t c = 0; c < mesh.cell_count(); ++c)
    if (!(geometry.cell_volume[c] > 0))
      throw Error("assemble_flow_operators: cell " + std::to_string(c) + " has volume " +
                  std::to_string(geometry.cell_volume[c]) + " (a valid mesh has positive volumes)");
  return geometry.cell_volume;
}

// M Γ_d and G_d = −Ω⁻¹ (M Γ_d)ᵀ per component, from the convective interpolation (in cell order).
void assemble_vector_operators(const mesh::MeshGeometry& geometry, const CsrMatrix& interpolation, FlowOperators& ops) {
  std::vector<double> minus_inverse_volume(ops.inverse_volume);
  for (double& v : minus_inverse_volume) v = -v;
  for (int d = 0; d < 3; ++d) {
    ops.cell_to_face[d] = normal_component(interpolation, geometry, d);
    ops.cell_divergence[d] = multiply(ops.divergence, ops.cell_to_face[d]);
    ops.cell_gradient[d] = scale_rows(transpose(ops.cell_divergence[d]), minus_inverse_volume);
  }
}

}  // namespace

// Assembled in mesh order, then every cell index is renumbered by the Laplacian's row order (§2.4).
FlowOperators assemble_flow_operators(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                      const FlowBoundaries& boundaries, const std::optional<Permutation>& cell_order) {
  boundaries.require_matches(mesh);
  FlowOperators ops;
  ops.boundaries = boundaries;
  const CsrMatrix divergence = divergence_matrix(mesh, geometry);
  const CsrMatrix face_gradient = face_gradient_matrix(mesh, geometry, &boundaries, GradientOf::pressure);
  const CsrMatrix laplacian = multiply(divergence, face_gradient);
  ops.cell_order = cell_order ? *cell_order : row_grouping_rcm(laplacian);
  const Permutation& cells = ops.cell_order;
  const Permutation faces = Permutation::identity(mesh.face_count());

  ops.volume = permute_vector(checked_volumes(mesh, geometry), cells);
  ops.inverse_volume = ops.volume;
  for (double& v : ops.inverse_volume) v = 1.0 / v;
  ops.divergence = permute(divergence, cells, faces);
  ops.face_gradient = permute(face_gradient, faces, cells);
  ops.laplacian = permute_symmetric(laplacian, cells);
  assemble_vector_operators(geometry, permute(detail::convective_interpolation_matrix(mesh, boundaries), faces, cells),
                            ops);
  ops.face_interpolation = permute(detail::face_interpolation_matrix(mesh), faces, cells);
  ops.flux_magnitude_sum = absolute(ops.divergence);
  ops.viscous_rate = permute(detail::viscous_rate_matrix(mesh, geometry, boundaries), cells, faces);
  detail::assemble_boundary_sources(mesh, geometry, ops);
  ops.momentum_pattern = permute_symmetric(detail::neighbour_pattern(mesh), cells);
  return ops;
}

}  // namespace miniapp::fv
