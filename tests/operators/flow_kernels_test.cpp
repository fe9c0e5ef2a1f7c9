#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "operators/kernels/flow_kernels.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

namespace {

using Grad = std::array<double, 9>;  // g[3a + b] = ∂u_a/∂x_b
constexpr double c_model = 0.17, delta = 0.3, cd2 = (c_model * delta) * (c_model * delta);
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

// ν_t of `model` at cells with gradients g and filter widths w, through the CPU front end.
std::vector<double> nu_t_of(LesModel model, double c, const std::vector<Grad>& g, const std::vector<double>& w) {
  const Executor exec = Executor::cpu();
  const index_t n = static_cast<index_t>(g.size());
  std::vector<Vector> comp;
  for (int k = 0; k < 9; ++k) {
    std::vector<double> h(g.size());
    for (std::size_t i = 0; i < g.size(); ++i) h[i] = g[i][k];
    comp.push_back(Vector::from_host(exec, h));
  }
  std::array<const Vector*, 9> ptr{};
  for (int k = 0; k < 9; ++k) ptr[k] = &comp[k];
  const Vector width = Vector::from_host(exec, w);
  Vector nu(exec, n);
  eddy_viscosity(exec, model, c, ptr, width, nu);
  return nu.to_host();
}

double nu_t_of(LesModel model, const Grad& g, double c = c_model, double w = delta) {
  return nu_t_of(model, c, std::vector<Grad>{g}, std::vector<double>{w})[0];
}

Grad multiply(const Grad& a, const Grad& b) {
  Grad c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}

Grad transpose(const Grad& a) {
  return {a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]};
}

// A random rotation, from a random unit quaternion.
Grad random_rotation(std::mt19937& gen) {
  std::normal_distribution<double> normal;
  double q[4], norm = 0;
  for (double& v : q) {
    v = normal(gen);
    norm += v * v;
  }
  for (double& v : q) v /= std::sqrt(norm);
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  return {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
          2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
          2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
}

Grad random_gradient(std::mt19937& gen) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Grad g;
  for (double& v : g) v = value(gen);
  return g;
}

// R diag(s) Qᵀ: a gradient with singular values s in random frames.
Grad with_singular_values(double s1, double s2, double s3, std::mt19937& gen) {
  const Grad d{s1, 0, 0, 0, s2, 0, 0, 0, s3};
  return multiply(multiply(random_rotation(gen), d), transpose(random_rotation(gen)));
}

constexpr std::array<LesModel, 4> models{LesModel::smagorinsky, LesModel::wale, LesModel::vreman, LesModel::sigma};

}  // namespace

TEST_CASE("eddy viscosity of pure shear: only Smagorinsky is non-zero", "[flow_kernels][les]") {
  const double gamma = -2.5;
  const Grad g{0, gamma, 0, 0, 0, 0, 0, 0, 0};
  CHECK(nu_t_of(LesModel::smagorinsky, g) == Approx(cd2 * std::abs(gamma)).epsilon(1e-14));
  CHECK(nu_t_of(LesModel::wale, g) == 0.0);    // g² = 0, so Sᵈ = 0
  CHECK(nu_t_of(LesModel::vreman, g) == 0.0);  // gᵀg has one non-zero entry: B_β = 0
  CHECK(nu_t_of(LesModel::sigma, g) == 0.0);   // σ = (|γ|, 0, 0)
}

TEST_CASE("eddy viscosity of solid-body rotation: Smagorinsky and Sigma vanish", "[flow_kernels][les]") {
  const double omega = 1.7;
  const Grad g{0, -omega, 0, omega, 0, 0, 0, 0, 0};
  CHECK(nu_t_of(LesModel::smagorinsky, g) == 0.0);  // S = 0
  // g² = diag(−ω², −ω², 0): Sᵈ = ω² diag(−⅓, −⅓, ⅔), Sᵈ:Sᵈ = ⅔ω⁴, S:S = 0.
  CHECK(nu_t_of(LesModel::wale, g) == Approx(cd2 * std::pow(2.0 / 3.0, 0.25) * omega).epsilon(1e-14));
  // gᵀg = diag(ω², ω², 0): B_β = Δ⁴ω⁴, g:g = 2ω².
  CHECK(nu_t_of(LesModel::vreman, g) == Approx(c_model * delta * delta * omega / std::sqrt(2.0)).epsilon(1e-14));
  CHECK(nu_t_of(LesModel::sigma, g) == 0.0);  // σ = (ω, ω, 0)
}

TEST_CASE("eddy viscosity of a diagonal strain diag(3, -1, -2)", "[flow_kernels][les]") {
  const Grad g{3, 0, 0, 0, -1, 0, 0, 0, -2};
  CHECK(nu_t_of(LesModel::smagorinsky, g) == Approx(cd2 * std::sqrt(28.0)).epsilon(1e-14));  // S:S = 14
  // g² = diag(9, 1, 4), tr 14: Sᵈ = diag(13, −11, −2)/3, Sᵈ:Sᵈ = 98/3.
  const double dd = 98.0 / 3.0, ss = 14.0;
  const double wale = cd2 * std::pow(dd, 1.5) / (std::pow(ss, 2.5) + std::pow(dd, 1.25));
  CHECK(nu_t_of(LesModel::wale, g) == Approx(wale).epsilon(1e-14));
  // gᵀg = diag(9, 1, 4): B_β / Δ⁴ = 9 + 36 + 4 = 49.
  CHECK(nu_t_of(LesModel::vreman, g) == Approx(c_model * delta * delta * std::sqrt(49.0 / 14.0)).epsilon(1e-14));
  CHECK(nu_t_of(LesModel::sigma, g) == Approx(cd2 / 9.0).epsilon(1e-14));  // σ = (3, 2, 1)
}

TEST_CASE("Sigma finds the singular values of a rotated gradient", "[flow_kernels][les]") {
  std::mt19937 gen(7);
  for (int trial = 0; trial < 20; ++trial) {
    // σ = (3, 2, 1) → 1·1·1/9; σ = (4, 1, 0.5) → 0.5·3·0.5/16.
    CHECK(nu_t_of(LesModel::sigma, with_singular_values(3, 2, 1, gen)) == Approx(cd2 / 9.0).epsilon(1e-11));
    CHECK(nu_t_of(LesModel::sigma, with_singular_values(4, 1, 0.5, gen)) == Approx(cd2 * 0.75 / 16).epsilon(1e-11));
  }
}

TEST_CASE("Sigma vanishes for 2D flow, axisymmetric strain and isotropic expansion", "[flow_kernels][les]") {
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    const Grad two_d{value(gen), value(gen), 0, value(gen), value(gen), 0, 0, 0, 0};
    CHECK(nu_t_of(LesModel::sigma, two_d) == 0.0);
    // Repeated singular values in a random frame: zero up to the √ε splitting error of the
    // closed-form eigenvalue solver (les_models.hpp), relative to (CΔ)²σ1.
    CHECK(nu_t_of(LesModel::sigma, with_singular_values(2, 1, 1, gen)) == Approx(0.0).margin(1e-7 * cd2));
    CHECK(nu_t_of(LesModel::sigma, with_singular_values(2, 2, 1, gen)) == Approx(0.0).margin(1e-7 * cd2));
    CHECK(nu_t_of(LesModel::sigma, with_singular_values(1.5, 1.5, 1.5, gen)) == Approx(0.0).margin(1e-7 * cd2));
  }
  CHECK(nu_t_of(LesModel::sigma, Grad{-2, 0, 0, 0, 1, 0, 0, 0, 1}) == 0.0);
  CHECK(nu_t_of(LesModel::sigma, Grad{0.4, 0, 0, 0, 0.4, 0, 0, 0, 0.4}) == 0.0);
}

TEST_CASE("eddy viscosity is invariant under a rotation of the frame", "[flow_kernels][les]") {
  std::mt19937 gen(3);
  for (int trial = 0; trial < 50; ++trial) {
    const Grad g = random_gradient(gen), r = random_rotation(gen);
    const Grad rotated = multiply(multiply(r, g), transpose(r));
    for (const LesModel m : models) {
      INFO("model " << static_cast<int>(m) << ", trial " << trial);
      CHECK(nu_t_of(m, rotated) == Approx(nu_t_of(m, g)).epsilon(1e-10).margin(1e-14));
    }
  }
}

TEST_CASE("eddy viscosity scales as C²Δ²|g| (Vreman as C Δ² |g|)", "[flow_kernels][les]") {
  std::mt19937 gen(5);
  for (int trial = 0; trial < 10; ++trial) {
    const Grad g = random_gradient(gen);
    Grad g3 = g;
    for (double& v : g3) v *= 3;
    for (const LesModel m : models) {
      INFO("model " << static_cast<int>(m));
      const double base = nu_t_of(m, g);
      CHECK(base > 0);
      CHECK(nu_t_of(m, g, c_model, 2 * delta) == Approx(4 * base).epsilon(1e-12));
      CHECK(nu_t_of(m, g3) == Approx(3 * base).epsilon(1e-12));
      CHECK(nu_t_of(m, g, 2 * c_model) == Approx((m == LesModel::vreman ? 2 : 4) * base).epsilon(1e-12));
    }
  }
}

TEST_CASE("eddy viscosity is zero for a zero gradient and for model none", "[flow_kernels][les]") {
  for (const LesModel m : models) CHECK(nu_t_of(m, Grad{}) == 0.0);
  // none writes zeros without reading the gradient.
  const Grad poisoned{not_a_number, 1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(nu_t_of(LesModel::none, poisoned) == 0.0);
}

TEST_CASE("eddy viscosity of many cells matches cell by cell, and is counted", "[flow_kernels][les]") {
  std::mt19937 gen(13);
  std::vector<Grad> g(1001);
  std::vector<double> w(g.size());
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = random_gradient(gen), w[i] = 0.01 * (1 + i % 7);
  for (const LesModel m : models) {
    const std::vector<double> nu = nu_t_of(m, 0.2, g, w);
    for (std::size_t i = 0; i < g.size(); i += 97) CHECK(nu[i] == nu_t_of(m, g[i], 0.2, w[i]));
  }
  const Executor exec = Executor::cpu();
  const index_t n = 10;
  std::vector<Vector> comp;
  for (int k = 0; k < 9; ++k) comp.emplace_back(Vector::from_host(exec, test::random_vector(n, k)));
  const std::array<const Vector*, 9> ptr{&comp[0], &comp[1], &comp[2], &comp[3], &comp[4],
                                         &comp[5], &comp[6], &comp[7], &comp[8]};
  Vector width = Vector::from_host(exec, std::vector<double>(n, 0.1)), nu(exec, n);
  eddy_viscosity(exec, LesModel::wale, 0.5, ptr, width, nu);
  const KernelTally& t = exec.counters().tally(KernelKind::pointwise);
  CHECK(t.calls == 1);
  CHECK(t.bytes == 88.0 * n);
  CHECK(t.flops > 0);
}

TEST_CASE("eddy viscosity rejects mismatched sizes and null components", "[flow_kernels][les]") {
  const Executor exec = Executor::cpu();
  Vector a(exec, 5), b(exec, 6), nu(exec, 5);
  std::array<const Vector*, 9> ptr{&a, &a, &a, &a, &a, &a, &a, &a, &a};
  CHECK_THROWS_WITH(eddy_viscosity(exec, LesModel::smagorinsky, 0.1, ptr, b, nu),
                    Catch::Contains("filter_width") && Catch::Contains("6"));
  ptr[4] = &b;
  CHECK_THROWS_WITH(eddy_viscosity(exec, LesModel::sigma, 0.1, ptr, a, nu), Catch::Contains("component 4"));
  ptr[4] = nullptr;
  CHECK_THROWS_WITH(eddy_viscosity(exec, LesModel::vreman, 0.1, ptr, a, nu), Catch::Contains("null"));
}

TEST_CASE("min_ratio skips entries with y <= 0", "[flow_kernels]") {
  const Executor exec = Executor::cpu();
  auto ratio = [&](const std::vector<double>& x, const std::vector<double>& y) {
    return min_ratio(exec, Vector::from_host(exec, x), Vector::from_host(exec, y));
  };
  CHECK(ratio({1, 2, -3, 4, 5}, {2, 0, 1, -1, 10}) == -3.0);
  CHECK(ratio({-1, -2}, {0, -1}) == inf);
  CHECK(ratio({}, {}) == inf);
  CHECK(ratio({1, 5}, {not_a_number, 2}) == 2.5);  // NaN y is skipped like y <= 0
  CHECK(std::isnan(ratio({1, not_a_number, 3}, {1, 1, 1})));
  const index_t n = 100003;
  const auto x = test::random_vector(n, 1), y = test::random_vector(n, 2);
  double expected = inf;
  for (index_t i = 0; i < n; ++i)
    if (y[i] > 0) expected = std::min(expected, x[i] / y[i]);
  CHECK(ratio(x, y) == expected);
  CHECK_THROWS_AS(ratio({1, 2}, {1}), Error);
  Vector minima(exec, 3);  // into a window of a longer vector, as for several minima read together
  Vector slot = minima.window(1, 1);
  min_ratio(exec, Vector::from_host(exec, x), Vector::from_host(exec, y), slot);
  CHECK(minima.to_host()[1] == expected);
  Vector empty(exec, 0);
  min_ratio(exec, empty, empty, slot);
  CHECK(minima.to_host()[1] == inf);
}

TEST_CASE("max_abs and abs_value", "[flow_kernels]") {
  const Executor exec = Executor::cpu();
  auto max_of = [&](const std::vector<double>& x) { return max_abs(exec, Vector::from_host(exec, x)); };
  CHECK(max_of({1, -7, 3}) == 7.0);
  CHECK(max_of({-0.5, -0.25}) == 0.5);
  CHECK(max_of({}) == 0.0);
  CHECK(std::isnan(max_of({1, not_a_number, -9})));
  const auto x = test::random_vector(100003, 3);
  double expected = 0;
  for (double v : x) expected = std::max(expected, std::abs(v));
  CHECK(max_of(x) == expected);
  Vector result(exec, 3);  // into a window of a longer vector, as for several maxima read together
  Vector slot = result.window(1, 1);
  max_abs(exec, Vector::from_host(exec, x), slot);
  CHECK(result.to_host()[1] == expected);

  Vector v = Vector::from_host(exec, std::vector<double>{-1.5, 0, 2, -0.0}), w(exec, 4);
  abs_value(exec, v, w);
  CHECK(w.to_host() == std::vector<double>{1.5, 0, 2, 0});
  abs_value(exec, v, v);  // in place
  CHECK(v.to_host() == std::vector<double>{1.5, 0, 2, 0});
  Vector short_y(exec, 3);
  CHECK_THROWS_AS(abs_value(exec, v, short_y), Error);
}

TEST_CASE("min_ratio, max_abs and abs_value are counted as pointwise", "[flow_kernels]") {
  const Executor exec = Executor::cpu();
  const index_t n = 100;
  Vector x = Vector::from_host(exec, test::random_vector(n, 4)), y = Vector::from_host(exec, test::random_vector(n, 5));
  min_ratio(exec, x, y);
  max_abs(exec, x);
  abs_value(exec, x, y);
  const KernelTally& t = exec.counters().tally(KernelKind::pointwise);
  CHECK(t.calls == 3);
  CHECK(t.bytes == (16.0 + 8.0 + 16.0) * n);
  CHECK(t.flops == 3.0 * n);
  CHECK(exec.counters().host_reads() == 2);  // the synchronous reductions
  Vector slot(exec, 1);
  min_ratio(exec, x, y, slot);  // the asynchronous one: the same work, no read
  CHECK(exec.counters().tally(KernelKind::pointwise).bytes == (16.0 + 8.0 + 16.0 + 16.0) * n);
  CHECK(exec.counters().host_reads() == 2);
}

namespace {

struct WallFaceVectors {
  std::array<Vector, 3> u, n, w;
  Vector d;
};

// τ and y⁺ through the front end, on faces given per component.
std::pair<std::vector<double>, std::vector<double>> wall_shear_of(const Executor& exec, const WallFaceVectors& f,
                                                                  double scale, double nu) {
  const index_t n = f.d.size();
  Vector tau(exec, n), yplus(exec, n);
  const std::array<const Vector*, 3> u{&f.u[0], &f.u[1], &f.u[2]}, normal{&f.n[0], &f.n[1], &f.n[2]},
      w{&f.w[0], &f.w[1], &f.w[2]};
  wall_shear(exec, u, scale, normal, w, f.d, nu, tau, yplus);
  return {tau.to_host(), yplus.to_host()};
}

Vector host_vector(const Executor& exec, std::vector<double> v) { return Vector::from_host(exec, v); }

}  // namespace

TEST_CASE("wall_shear: the tangential slip over the distance, on a tilted wall and a moving one", "[flow_kernels]") {
  const Executor exec = Executor::cpu();
  const double s = std::sqrt(0.5), nu = 0.01;
  // Face 0: normal (s, s, 0), velocity 2 (s, s, 0) + 3 (s, −s, 0): only the 3 is tangential.
  // Face 1: normal (0, 0, 1), velocity (4, 0, 5) × scale 0.5 against a wall moving at (1, 0, 0): slip 1.
  WallFaceVectors f{{host_vector(exec, {5 * s, 4}), host_vector(exec, {-s, 0}), host_vector(exec, {0, 5})},
                    {host_vector(exec, {s, 0}), host_vector(exec, {s, 0}), host_vector(exec, {0, 1})},
                    {host_vector(exec, {0, 1}), host_vector(exec, {0, 0}), host_vector(exec, {0, 0})},
                    host_vector(exec, {0.1, 0.02})};
  const auto [tau, yplus] = wall_shear_of(exec, f, 1.0, nu);
  CHECK(tau[0] == Approx(nu * 3 / 0.1));
  CHECK(yplus[0] == Approx(0.1 * std::sqrt(nu * 3 / 0.1) / nu));
  const auto [tau_half, yplus_half] = wall_shear_of(exec, f, 0.5, nu);
  CHECK(tau_half[1] == Approx(nu * 1 / 0.02));  // (2, 0, 2.5) − (1, 0, 0), normal part 2.5 dropped
  CHECK(yplus_half[1] == Approx(0.02 * std::sqrt(nu / 0.02) / nu));
  const KernelTally& t = exec.counters().tally(KernelKind::pointwise);
  CHECK(t.calls == 2);
  CHECK(t.bytes == 2 * 96.0 * 2);

  Vector short_d(exec, 1), tau_out(exec, 2), yplus_out(exec, 2);
  const std::array<const Vector*, 3> u{&f.u[0], &f.u[1], &f.u[2]}, normal{&f.n[0], &f.n[1], &f.n[2]},
      w{&f.w[0], &f.w[1], nullptr};
  CHECK_THROWS_AS(wall_shear(exec, u, 1.0, normal, w, f.d, nu, tau_out, yplus_out), Error);  // a null component
  const std::array<const Vector*, 3> w_all{&f.w[0], &f.w[1], &f.w[2]};
  CHECK_THROWS_AS(wall_shear(exec, u, 1.0, normal, w_all, short_d, nu, tau_out, yplus_out), Error);
}
