// DeviceOperators' matrices that read another's structure: G_d on M Γ_d's, |M| and the viscous rate
// on M's, with the products of the host matrices they were made from, on the CPU backend and, where a
// device is visible, on CUDA.
#include <catch2/catch.hpp>

#include <optional>
#include <random>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "miniapp/time/device_operators.hpp"
#include "operators/backend/cuda/device.hpp"
#include "operators/kernels/spmv.hpp"

namespace miniapp::time::test {
namespace {

fv::FlowBoundaries walls_with_a_lid(const mesh::Mesh& m) {
  fv::FlowBoundaries boundaries;
  for (const auto& patch : m.patches)
    boundaries.by_patch.push_back(patch.name == "ymax" ? fv::BoundaryCondition{BoundaryKind::moving_wall, {1, 0, 0}}
                                                       : fv::BoundaryCondition{BoundaryKind::wall, {0, 0, 0}});
  return boundaries;
}

std::vector<double> random_values(std::size_t n) {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = value(random);
  return v;
}

// The CPU backend, then CUDA's where a device is visible; none where it is not (the test returns).
std::optional<Executor> each_backend() {
  if (GENERATE(Backend::cpu, Backend::cuda) == Backend::cpu) return Executor::cpu();
  if (cuda::device_count() > 0) return Executor::cuda();
  WARN("CUDA not run: no device (or a build without CUDA)");
  return std::nullopt;
}

// Slice height: CUDA's warp-wide slices, small ones on the CPU so that these little meshes span many.
index_t slice_height(const Executor& exec) { return exec.backend() == Backend::cuda ? 32 : 4; }

void check_product(const Executor& exec, const DeviceSell& a, const CsrMatrix& host) {
  REQUIRE(a.rows() == host.rows);
  REQUIRE(a.cols() == host.cols);
  const std::vector<double> x = random_values(static_cast<std::size_t>(host.cols));
  Vector y(exec, a.rows());
  spmv(exec, a, Vector::from_host(exec, x), y);
  const std::vector<double> expected = reference_spmv(host, x), got = y.to_host();
  for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(expected[i]).epsilon(1e-13).margin(1e-13));
}

TEST_CASE("G_d, |M| and the viscous rate read the structure of M Gamma_d and M and multiply as the host matrices they come from",
          "[time][operators]") {
  const mesh::BoxSpec box{{4, 3, 3}, {0, 0, 0}, {1, 0.75, 0.75}, {0, 0, 0}, {false, false, false}};
  const bool tets = GENERATE(false, true);
  CAPTURE(tets);
  const mesh::Mesh m = tets ? mesh::make_tet_box(box) : mesh::make_hex_box(box);
  const mesh::MeshGeometry g = mesh::compute_geometry(m);
  fv::FlowOperators ops = fv::assemble_flow_operators(m, g, walls_with_a_lid(m));
  const fv::FlowOperators host = ops;  // the upload releases what only it reads
  const std::optional<Executor> backend = each_backend();
  if (!backend) return;
  const Executor& exec = *backend;
  const DeviceOperators device(exec, m, g, ops, slice_height(exec), 0.01, false, Vec3{0, 0, 0});

  for (int d = 0; d < 3; ++d) {
    CAPTURE(d);
    REQUIRE(has_symmetric_pattern(host.cell_divergence[d]));
    CHECK(device.cell_gradient[d].view().col == device.cell_divergence[d].view().col);
    CHECK(device.cell_gradient[d].view().slice_ptr == device.cell_divergence[d].view().slice_ptr);
    CHECK(device.cell_gradient[d].view().val != device.cell_divergence[d].view().val);
    check_product(exec, device.cell_gradient[d], fv::cell_gradient_matrix(host, d));
    check_product(exec, device.cell_divergence[d], host.cell_divergence[d]);
  }
  CHECK(device.flux_magnitude_sum.view().col == device.divergence.view().col);
  CHECK(device.flux_magnitude_sum.view().val != device.divergence.view().val);
  check_product(exec, device.flux_magnitude_sum, absolute(host.divergence));
  check_product(exec, device.divergence, host.divergence);
  // Walls all round: every face of M's rows has a viscous rate.
  REQUIRE(same_pattern(host.viscous_rate, host.divergence));
  CHECK(device.viscous_rate.view().col == device.divergence.view().col);
  CHECK(device.viscous_rate.view().val != device.divergence.view().val);
  check_product(exec, device.viscous_rate, host.viscous_rate);
}

TEST_CASE("A viscous rate of another pattern than M's (an outlet) is uploaded whole", "[time][operators]") {
  const mesh::Mesh m = mesh::make_hex_box({{4, 3, 2}, {0, 0, 0}, {1, 0.75, 0.5}, {0, 0, 0}, {false, false, false}});
  const mesh::MeshGeometry g = mesh::compute_geometry(m);
  fv::FlowBoundaries boundaries = walls_with_a_lid(m);
  for (std::size_t p = 0; p < m.patches.size(); ++p)
    if (m.patches[p].name == "xmax") boundaries.by_patch[p] = fv::BoundaryCondition{BoundaryKind::outlet, {0, 0, 0}};
  fv::FlowOperators ops = fv::assemble_flow_operators(m, g, boundaries);
  const fv::FlowOperators host = ops;
  REQUIRE_FALSE(same_pattern(host.viscous_rate, host.divergence));
  const std::optional<Executor> backend = each_backend();
  if (!backend) return;
  const Executor& exec = *backend;
  const DeviceOperators device(exec, m, g, ops, slice_height(exec), 0.01, false, Vec3{0, 0, 0});
  CHECK(device.viscous_rate.view().col != device.divergence.view().col);
  CHECK(device.viscous_rate.view().slice_ptr != device.divergence.view().slice_ptr);
  check_product(exec, device.viscous_rate, host.viscous_rate);
}

}  // namespace
}  // namespace miniapp::time::test
