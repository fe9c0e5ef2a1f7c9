#include "operators/fv/operator_checks.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <span>

#include "mesh/mesh_report.hpp"
#include "operators/fv/convection_operator.hpp"
#include "operators/sparse/csr_compare.hpp"
#include "operators/sparse/sell_matrix.hpp"

namespace miniapp::fv {
namespace {

// Round-off bound of the matrix identities, relative to the largest entry: each entry is a sum of a
// few products, so a correct assembly stays within a few ulps.
constexpr double matrix_tolerance = 1e-12;

double max_abs(std::span<const double> v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// |a − b| relative to max |b| (to 1 when b is zero).
double relative_difference(const CsrMatrix& a, const CsrMatrix& b) {
  const double scale = max_abs(b.val);
  return max_abs_difference(a, b) / (scale > 0 ? scale : 1.0);
}

OperatorCheck duality(const FlowOperators& ops) {
  OperatorCheck check{"Omega G = -(M Gamma)^T, per component", 0, matrix_tolerance};
  for (int d = 0; d < 3; ++d) {
    CsrMatrix omega_g = cell_gradient_matrix(ops, d);
    for (index_t r = 0; r < omega_g.rows; ++r)
      for (index_t p = omega_g.row_ptr[r]; p < omega_g.row_ptr[r + 1]; ++p) omega_g.val[p] *= ops.volume[r];
    CsrMatrix minus_mg_t = transpose(ops.cell_divergence[d]);
    for (double& v : minus_mg_t.val) v = -v;
    check.error = std::max(check.error, relative_difference(omega_g, minus_mg_t));
  }
  return check;
}

OperatorCheck laplacian_symmetry(const FlowOperators& ops) {
  return {"L = M Gs symmetric", relative_difference(transpose(ops.laplacian), ops.laplacian), matrix_tolerance};
}

// max_{i≠j} |C_ij + C_ji|, relative to the largest face flux A_f |u_f|.
OperatorCheck convection_skew_symmetry(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                       const FlowOperators& ops) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> face_velocity(static_cast<std::size_t>(mesh.face_count()));
  double max_flux = 0;
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    face_velocity[f] = uniform(random);
    max_flux = std::max(max_flux, geometry.face_area[f] * std::abs(face_velocity[f]));
  }
  const CsrMatrix pattern = momentum_pattern(ops.laplacian);
  SellMatrix layout = to_sell(pattern, 1);
  const std::vector<double> values =
      reference_spmv(convection_map(mesh, geometry, ops, pattern, layout), face_velocity);
  layout.val.assign(values.begin(), values.end());
  CsrMatrix off_diagonal = to_csr(layout);
  for (index_t r = 0; r < off_diagonal.rows; ++r)
    for (index_t p = off_diagonal.row_ptr[r]; p < off_diagonal.row_ptr[r + 1]; ++p)
      if (off_diagonal.col[p] == r) off_diagonal.val[p] = 0;
  CsrMatrix minus_transpose = transpose(off_diagonal);
  for (double& v : minus_transpose.val) v = -v;
  return {"C(u_s) skew-symmetric off the diagonal, random u_s",
          max_abs_difference(off_diagonal, minus_transpose) / (max_flux > 0 ? max_flux : 1.0), matrix_tolerance};
}

}  // namespace

std::vector<OperatorCheck> check_operators(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                           const FlowOperators& ops) {
  return {{"mesh closure: max_cell |sum A n| / sum A", mesh::make_report(mesh, geometry).max_closure_error,
           mesh::open_cell_threshold},
          duality(ops), laplacian_symmetry(ops), convection_skew_symmetry(mesh, geometry, ops)};
}

}  // namespace miniapp::fv
