// The constant boundary vectors on a uniform hex box: 1 × 2 × 0.5 in 4 × 3 × 5 cells, inlet on xmin,
// outlet on xmax, a lid (moving wall) on ymax, fixed walls elsewhere.
#include <catch2/catch.hpp>

#include "fv_test_support.hpp"
#include "operators/fv/diffusion_operator.hpp"
#include "operators/sparse/sell_matrix.hpp"

using namespace miniapp;
using namespace miniapp::fv;
using namespace miniapp::fv::test;

namespace {

const Vec3 inlet_velocity{2.0, 0.5, 0.0};
const Vec3 lid_velocity{1.5, 0.0, 0.3};

FlowCase channel() {
  return make_case("channel", mesh::make_hex_box({.cells = {4, 3, 5}, .length = {1, 2, 0.5}}),
                   {{"xmin", {BoundaryKind::inlet, inlet_velocity}},
                    {"xmax", {BoundaryKind::outlet, {}}},
                    {"ymax", {BoundaryKind::moving_wall, lid_velocity}}});
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

}  // namespace

TEST_CASE("boundary_face_velocity is u_b.n on wall and inlet faces and zero elsewhere", "[fv][sources]") {
  const FlowCase c = channel();
  const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
  REQUIRE(ops.boundary_face_velocity.size() == static_cast<std::size_t>(c.mesh.face_count()));
  const mesh::Patch& inlet = *c.mesh.find_patch("xmin");
  const mesh::Patch& lid = *c.mesh.find_patch("ymax");
  for (index_t f = 0; f < c.mesh.face_count(); ++f) {
    const bool on_inlet = f >= inlet.first_face && f < inlet.first_face + inlet.face_count;
    const bool on_lid = f >= lid.first_face && f < lid.first_face + lid.face_count;
    // Normals point out of the domain: −x on the inlet; the lid moves tangentially (its n = +y).
    CHECK(ops.boundary_face_velocity[f] == Approx(on_inlet ? -inlet_velocity.x : 0.0).margin(1e-15));
    if (on_lid) CHECK(dot(lid_velocity, c.geometry.face_normal[f]) == Approx(0).margin(1e-15));
  }
}

TEST_CASE("the inlet source sums to the inflow momentum flux", "[fv][sources]") {
  const FlowCase c = channel();
  const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
  // Σ_inlet A (u·n) u_d over the 2 × 0.5 inlet with u·n = −u_x.
  const double inlet_area = 2 * 0.5;
  for (int d = 0; d < 3; ++d)
    CHECK(sum(ops.inlet_convection_source[d]) == Approx(-inlet_area * inlet_velocity.x * inlet_velocity[d]).margin(1e-13));
  // Only cells next to the inlet receive it.
  index_t sourced = 0;
  for (double s : ops.inlet_convection_source[0]) sourced += s != 0;
  CHECK(sourced == 3 * 5);
}

TEST_CASE("the diffusion source is -A u_b/dn on the lid and the inlet", "[fv][sources]") {
  const FlowCase c = channel();
  const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
  const std::vector<double> unit_nu(static_cast<std::size_t>(c.mesh.face_count()), 1.0);
  // Half-cell distances: 1/8 to the inlet, 1/3 to the lid; areas 1 (inlet) and 0.5 (lid).
  const double inlet_conductance = 1.0 / 0.125, lid_conductance = 0.5 / (1.0 / 3.0);
  for (int d = 0; d < 3; ++d) {
    const double expected = -inlet_conductance * inlet_velocity[d] - lid_conductance * lid_velocity[d];
    CHECK(sum(reference_spmv(ops.boundary_diffusion_source[d], unit_nu)) == Approx(expected).margin(1e-12));
  }
}

TEST_CASE("D u + source vanishes for a uniform velocity equal to every prescribed velocity", "[fv][sources]") {
  // A uniform flow through a box of inlets and moving walls at the same velocity has no shear: the
  // homogeneous part (E_D) and the boundary part (source) of the diffusion must cancel.
  const Vec3 u{0.7, -0.2, 0.4};
  FlowCase c = make_case("tet", mesh::make_tet_box({.cells = {3, 2, 2}, .stretch = {1, 0, 0}}));
  for (std::size_t p = 0; p < c.boundaries.by_patch.size(); ++p)
    c.boundaries.by_patch[p] = {p % 2 ? BoundaryKind::inlet : BoundaryKind::moving_wall, u};
  const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
  const CsrMatrix pattern = momentum_pattern(ops.laplacian);
  const SellMatrix layout = to_sell(pattern, 4);
  const std::vector<double> nu = random_vector(static_cast<std::size_t>(c.mesh.face_count()), 9, 0.5, 2.0);
  SellMatrix diffusion = layout;
  const std::vector<double> values = reference_spmv(diffusion_map(c.mesh, c.geometry, ops, pattern, layout), nu);
  diffusion.val.assign(values.begin(), values.end());
  const CsrMatrix d_csr = to_csr(diffusion);
  for (int d = 0; d < 3; ++d) {
    std::vector<double> r = reference_spmv(d_csr, std::vector<double>(static_cast<std::size_t>(d_csr.rows), u[d]));
    const std::vector<double> s = reference_spmv(ops.boundary_diffusion_source[d], nu);
    REQUIRE(max_abs(s) > 0);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] += s[i];
    CHECK(max_abs(r) <= 1e-12 * max_abs(s));
  }
}
