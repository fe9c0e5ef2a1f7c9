#include "operators/fv/flow_operators.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "operators/fv/convection_operator.hpp"
#include "operators/fv/divergence.hpp"
#include "operators/fv/face_gradient.hpp"
#include "operators/fv/flow_assembly.hpp"
#include "operators/sparse/csr_rows.hpp"

namespace miniapp::fv {
namespace {

// Γ = [Γ_0 Γ_1 Γ_2] with its columns interleaved (column 3j + d is Γ_d's column j), Γ_d = diag(n_d) Π_c.
// Entries of faces with n_d = 0 exactly (axis-aligned faces of hexahedra) are dropped: on a hex mesh
// they would be two thirds of Γ's non-zeros and only cost SpMV work.
CsrMatrix interleaved_normal_components(const CsrMatrix& interpolation, const mesh::MeshGeometry& geometry) {
  const index_t cols = checked_index(3 * static_cast<std::size_t>(interpolation.cols), "the three cell-to-face maps' columns");
  return csr_from_rows(interpolation.rows, cols, [&] {
    return [&](index_t f, RowEntries& out) {
      const Vec3& n = geometry.face_normal[f];
      for (index_t p = interpolation.row_ptr[f]; p < interpolation.row_ptr[f + 1]; ++p)
        for (int d = 0; d < 3; ++d)
          if (n[d] != 0) out.push(3 * interpolation.col[p] + d, n[d] * interpolation.val[p]);
    };
  });
}

std::vector<double> checked_volumes(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry) {
  for (index_t c = 0; c < mesh.cell_count(); ++c)
    if (!(geometry.cell_volume[c] > 0))
      throw Error("assemble_flow_operators: cell " + std::to_string(c) + " has volume " +
                  std::to_string(geometry.cell_volume[c]) + " (a valid mesh has positive volumes)");
  return {geometry.cell_volume.begin(), geometry.cell_volume.end()};
}

// Γ (interleaved) and M Γ_d per component, from the convective interpolation (in cell order). The
// three M Γ_d come from one product M Γ, cut into three: each entry sums the same products in the same
// order as M Γ_d alone, and the faces' rows, read from all over the mesh, are read once instead of
// three times.
void assemble_vector_operators(const CsrMatrix& interpolation, const mesh::MeshGeometry& geometry, FlowOperators& ops) {
  ops.cell_to_face = interleaved_normal_components(interpolation, geometry);
  // The product is released once split: no more held at once than it and its three parts.
  std::vector<CsrMatrix> divergences = split_interleaved_columns(multiply(ops.divergence, ops.cell_to_face), 3);
  for (std::size_t d = 0; d < 3; ++d) ops.cell_divergence[d] = std::move(divergences[d]);
}

}  // namespace

// M Γ_d has a symmetric pattern (cells coupled through a face in both directions).
CsrMatrix cell_gradient_matrix(const FlowOperators& ops, int d) {
  CsrMatrix g = transpose_symmetric_pattern(ops.cell_divergence[d]);
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < g.rows; ++r)
    for (index_t p = g.row_ptr[r]; p < g.row_ptr[r + 1]; ++p) g.val[p] *= -ops.inverse_volume[r];
  return g;
}

Permutation default_cell_order(const mesh::Mesh& mesh, const CsrMatrix& mesh_order_laplacian) {
  return cell_row_order(mesh_order_laplacian, mesh.cells_in_lattice_order);
}

// The order comes from the Laplacian in mesh order; M, Gs and L are permuted into it, every other
// operator is assembled directly in it (renumbering the cells of each entry, which gives the same
// matrices as assembling in mesh order and permuting, without the permutations).
FlowOperators assemble_flow_operators(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                      const FlowBoundaries& boundaries, const std::optional<Permutation>& cell_order,
                                      StageProfile* profile) {
  boundaries.require_matches(mesh);
  FlowOperators ops;
  ops.boundaries = boundaries;
  // Without a given order, M, Gs and L are built in mesh order (where the product reads nearby faces)
  // for the order to come from L.
  std::optional<CsrMatrix> mesh_order_divergence, mesh_order_face_gradient, mesh_order_laplacian;
  if (cell_order) {
    ops.cell_order = *cell_order;
  } else {
    {
      StageProfile::Part part(profile, "L in mesh order");
      mesh_order_divergence = divergence_matrix(mesh, geometry);
      mesh_order_face_gradient = face_gradient_matrix(mesh, geometry, &boundaries, GradientOf::pressure);
      mesh_order_laplacian = multiply(*mesh_order_divergence, *mesh_order_face_gradient);
    }
    StageProfile::Part part(profile, "cell order");
    ops.cell_order = default_cell_order(mesh, *mesh_order_laplacian);
  }
  const Permutation& cells = ops.cell_order;
  {
    StageProfile::Part part(profile, "M, Gs, L");
    ops.volume = permute_vector(checked_volumes(mesh, geometry), cells);
    ops.inverse_volume = ops.volume;
    for (double& v : ops.inverse_volume) v = 1.0 / v;
    if (mesh_order_laplacian) {
      // P L Pᵀ is bitwise M Gs in cell order: each entry sums the same products M_if Gs_fj in face
      // order either way, and a permutation reads each row once where the product in cell order reads
      // the faces of each cell from all over the mesh.
      ops.divergence = permute_rows(*mesh_order_divergence, cells);
      ops.face_gradient = permute_columns(*mesh_order_face_gradient, cells);
      ops.laplacian = permute_symmetric(*mesh_order_laplacian, cells);
    } else {
      ops.divergence = divergence_matrix(mesh, geometry, &cells);
      ops.face_gradient = face_gradient_matrix(mesh, geometry, &boundaries, GradientOf::pressure, &cells);
      ops.laplacian = multiply(ops.divergence, ops.face_gradient);
    }
    mesh_order_divergence.reset();
    mesh_order_face_gradient.reset();
    mesh_order_laplacian.reset();
  }
  {
    StageProfile::Part part(profile, "cell-to-face, M Gamma");
    ops.convective_interpolation = convective_interpolation_matrix(mesh, boundaries, cells);
    assemble_vector_operators(ops.convective_interpolation, geometry, ops);
  }
  StageProfile::Part part(profile, "face maps, sources");
  ops.viscous_rate = detail::viscous_rate_matrix(mesh, geometry, boundaries, cells);
  detail::assemble_boundary_sources(mesh, geometry, ops);
  return ops;
}

// Each cell with itself and its face neighbours, values 0: the Laplacian's pattern (the cells sharing
// a face) with the diagonal added where it lacks one (a cell with only wall and inlet faces).
CsrMatrix momentum_pattern(const CsrMatrix& laplacian) {
  return csr_from_rows(laplacian.rows, laplacian.cols, [&] {
    return [&](index_t i, RowEntries& out) {
      bool diagonal = false;
      for (index_t p = laplacian.row_ptr[i]; p < laplacian.row_ptr[i + 1]; ++p) {
        const index_t j = laplacian.col[p];
        if (j > i && !diagonal) out.push(i, 0.0);
        diagonal = diagonal || j >= i;
        out.push(j, 0.0);
      }
      if (!diagonal) out.push(i, 0.0);
    };
  });
}

std::vector<index_t> momentum_row_lengths(const CsrMatrix& laplacian) {
  std::vector<index_t> lengths(static_cast<std::size_t>(laplacian.rows));
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < laplacian.rows; ++i) {
    const auto first = laplacian.col.begin() + laplacian.row_ptr[i], last = laplacian.col.begin() + laplacian.row_ptr[i + 1];
    lengths[i] = laplacian.row_length(i) + (std::find(first, last, i) == last ? 1 : 0);
  }
  return lengths;
}

}  // namespace miniapp::fv
