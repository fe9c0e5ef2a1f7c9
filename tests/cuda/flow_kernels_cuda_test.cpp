// CUDA flow kernels against the CPU reference, through the front ends on both executors.
// The reductions and abs_value are exact (min/max of correctly rounded quotients), so they must agree
// bit for bit. The eddy viscosity runs the same code (les_models.hpp) but nvcc fuses multiply-adds
// and CUDA's acos/cos round differently from glibc; where a model's value is much smaller than its
// natural size (C Δ)²|g| (nearly singular g for Sigma, Sᵈ ≈ 0 for WALE) those differences are
// amplified relative to ν_t itself, so the tolerance is relative to max(|ν_t|, (C Δ)²|g|).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <random>

#include "operators/kernels/flow_kernels.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

constexpr index_t cells = 100007;  // 10^5 + 7: a partial last block
constexpr double c_model = 0.2;

struct Cells {
  std::array<std::vector<double>, 9> g;
  std::vector<double> width;
};

// Random gradients in [−1, 1] and widths in [0.01, 0.1], with hand-made cells at the front where
// models vanish exactly: zero gradient, pure shear, solid-body rotation, a 2D gradient.
Cells random_cells() {
  Cells c;
  for (int k = 0; k < 9; ++k) c.g[k] = test::random_vector(cells, 100 + k);
  c.width = test::random_vector(cells, 99);
  for (double& w : c.width) w = 0.055 + 0.045 * w;
  const std::array<std::array<double, 9>, 4> special{{{0, 0, 0, 0, 0, 0, 0, 0, 0},
                                                      {0, 2, 0, 0, 0, 0, 0, 0, 0},
                                                      {0, -1, 0, 1, 0, 0, 0, 0, 0},
                                                      {0.3, -0.2, 0, 0.7, 0.1, 0, 0, 0, 0}}};
  for (std::size_t i = 0; i < special.size(); ++i)
    for (int k = 0; k < 9; ++k) c.g[k][i] = special[i][k];
  return c;
}

std::vector<double> eddy_viscosity_on(const Executor& exec, LesModel model, const Cells& c) {
  std::vector<Vector> comp;
  for (int k = 0; k < 9; ++k) comp.push_back(Vector::from_host(exec, c.g[k]));
  std::array<const Vector*, 9> ptr{};
  for (int k = 0; k < 9; ++k) ptr[k] = &comp[k];
  const Vector width = Vector::from_host(exec, c.width);
  Vector nu(exec, cells);
  eddy_viscosity(exec, model, c_model, ptr, width, nu);
  return nu.to_host();
}

TEST_CASE("CUDA eddy viscosity matches the CPU reference", "[cuda][flow_kernels]") {
  const LesModel model = GENERATE(LesModel::none, LesModel::smagorinsky, LesModel::wale, LesModel::vreman,
                                  LesModel::sigma);
  CAPTURE(static_cast<int>(model));
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const Cells c = random_cells();
  const std::vector<double> want = eddy_viscosity_on(cpu, model, c), got = eddy_viscosity_on(gpu, model, c);
  double worst = 0, worst_plain = 0;
  for (index_t i = 0; i < cells; ++i) {
    double gg = 0;
    for (int k = 0; k < 9; ++k) gg += c.g[k][i] * c.g[k][i];
    const double natural = c_model * c_model * c.width[i] * c.width[i] * std::sqrt(gg);
    const double diff = std::abs(got[i] - want[i]);
    worst = std::max(worst, diff / std::max(std::abs(want[i]), natural));
    if (want[i] != 0) worst_plain = std::max(worst_plain, diff / std::abs(want[i]));
    // The exact zeros of the hand-made cells at the front must stay exact on both backends.
    if (std::isnan(got[i]) || (i < 4 && (want[i] == 0) != (got[i] == 0)))
      FAIL_CHECK("cell " << i << ": " << got[i] << " on CUDA, " << want[i] << " on the CPU");
  }
  INFO("largest difference relative to ν_t alone: " << worst_plain);
  CHECK(worst <= test::tolerance);
}

TEST_CASE("CUDA min_ratio, max_abs and abs_value match the CPU bit for bit", "[cuda][flow_kernels]") {
  const index_t n = GENERATE(as<index_t>{}, 0, 1, 200, test::large_n);
  CAPTURE(n);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const test::Mirrored x(cpu, gpu, test::random_vector(n, 61)), y(cpu, gpu, test::random_vector(n, 62));
  CHECK(min_ratio(gpu, x.gpu, y.gpu) == min_ratio(cpu, x.cpu, y.cpu));
  CHECK(max_abs(gpu, x.gpu) == max_abs(cpu, x.cpu));
  Vector on_device(gpu, 2);
  Vector slot = on_device.window(1, 1);
  max_abs(gpu, x.gpu, slot);
  CHECK(on_device.to_host()[1] == max_abs(cpu, x.cpu));
  min_ratio(gpu, x.gpu, y.gpu, slot);
  CHECK(on_device.to_host()[1] == min_ratio(cpu, x.cpu, y.cpu));
  Vector a(gpu, n);
  abs_value(gpu, x.gpu, a);
  Vector b(cpu, n);
  abs_value(cpu, x.cpu, b);
  CHECK(a.to_host() == b.to_host());
}

TEST_CASE("CUDA min_ratio and max_abs: empty, all skipped, NaN", "[cuda][flow_kernels]") {
  const Executor gpu = Executor::cuda();
  const double inf = std::numeric_limits<double>::infinity();
  Vector empty(gpu, 0);
  CHECK(min_ratio(gpu, empty, empty) == inf);
  CHECK(max_abs(gpu, empty) == 0.0);
  std::vector<double> x = test::random_vector(test::large_n, 63), y(x.size(), -1.0);
  CHECK(min_ratio(gpu, Vector::from_host(gpu, x), Vector::from_host(gpu, y)) == inf);
  x[77777] = std::numeric_limits<double>::quiet_NaN();
  y[77777] = 1.0;
  const Vector xd = Vector::from_host(gpu, x);
  CHECK(std::isnan(min_ratio(gpu, xd, Vector::from_host(gpu, y))));
  CHECK(std::isnan(max_abs(gpu, xd)));
}

// The same per-face code on both backends; nvcc may fuse multiply-adds, so to round-off.
TEST_CASE("CUDA wall_shear matches the CPU", "[cuda][flow_kernels]") {
  const index_t n = GENERATE(as<index_t>{}, 1, test::large_n);
  CAPTURE(n);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  std::vector<std::vector<double>> h;
  for (int k = 0; k < 10; ++k) h.push_back(test::random_vector(n, 70 + k));
  for (index_t i = 0; i < n; ++i) {  // unit normals, positive distances
    const double norm = std::sqrt(h[3][i] * h[3][i] + h[4][i] * h[4][i] + h[5][i] * h[5][i]) + 1e-3;
    for (int k = 3; k < 6; ++k) h[k][i] /= norm;
    h[9][i] = 0.01 + std::abs(h[9][i]);
  }
  const auto run = [&](const Executor& exec) {
    std::vector<Vector> v;
    for (const auto& values : h) v.push_back(Vector::from_host(exec, values));
    Vector tau(exec, n), yplus(exec, n);
    wall_shear(exec, std::array<const Vector*, 3>{&v[0], &v[1], &v[2]}, 0.7,
               std::array<const Vector*, 3>{&v[3], &v[4], &v[5]}, std::array<const Vector*, 3>{&v[6], &v[7], &v[8]},
               v[9], 1.0 / 180, tau, yplus);
    return std::pair{tau.to_host(), yplus.to_host()};
  };
  const auto [tau_gpu, yplus_gpu] = run(gpu);
  const auto [tau_cpu, yplus_cpu] = run(cpu);
  CHECK(test::relative_difference(tau_gpu, tau_cpu) < 1e-13);
  CHECK(test::relative_difference(yplus_gpu, yplus_cpu) < 1e-13);
}

}  // namespace
}  // namespace miniapp
