#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "operators/kernels/vector_ops.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

namespace {
constexpr index_t n = 1037;  // not a multiple of any vector width
constexpr double poison = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("axpby computes a x + b y", "[vector_ops]") {
  const Executor exec = Executor::cpu();
  const auto x = test::random_vector(n, 1), y = test::random_vector(n, 2);
  Vector dy = Vector::from_host(exec, y);
  axpby(exec, 2.0, Vector::from_host(exec, x), -0.5, dy);
  const auto got = dy.to_host();
  for (index_t i = 0; i < n; ++i) CHECK(got[i] == Approx(2.0 * x[i] - 0.5 * y[i]));
}

TEST_CASE("accumulate_product adds a x y to z and counts 32 bytes per entry", "[vector_ops]") {
  const Executor exec = Executor::cpu();
  const auto x = test::random_vector(n, 11), y = test::random_vector(n, 12), z = test::random_vector(n, 13);
  Vector dz = Vector::from_host(exec, z);
  exec.counters().reset();
  accumulate_product(exec, 0.25, Vector::from_host(exec, x), Vector::from_host(exec, y), dz);
  CHECK(exec.counters().tally(KernelKind::pointwise).bytes == 32.0 * n);
  const auto got = dz.to_host();
  for (index_t i = 0; i < n; ++i) CHECK(got[i] == Approx(z[i] + 0.25 * x[i] * y[i]));
  Vector shorter(exec, n - 1);
  CHECK_THROWS_AS(accumulate_product(exec, 1.0, shorter, shorter, dz), Error);
}

TEST_CASE("axpby with b = 0 does not read y (NaN there)", "[vector_ops]") {
  const Executor exec = Executor::cpu();
  const auto x = test::random_vector(n, 3);
  Vector y = Vector::from_host(exec, std::vector<double>(n, poison));
  axpby(exec, 3.0, Vector::from_host(exec, x), 0.0, y);
  const auto got = y.to_host();
  for (index_t i = 0; i < n; ++i) CHECK(got[i] == 3.0 * x[i]);
}

TEST_CASE("waxpby skips inputs with a zero coefficient", "[vector_ops]") {
  const Executor exec = Executor::cpu();
  const auto x = test::random_vector(n, 4), y = test::random_vector(n, 5);
  const Vector dx = Vector::from_host(exec, x), dy = Vector::from_host(exec, y);
  const Vector poisoned = Vector::from_host(exec, std::vector<double>(n, poison));
  Vector w(exec, n);
  waxpby(exec, 1.5, dx, 2.5, dy, w);
  auto got = w.to_host();
  for (index_t i = 0; i < n; ++i) CHECK(got[i] == Approx(1.5 * x[i] + 2.5 * y[i]));
  waxpby(exec, 0.0, poisoned, 2.0, dy, w);
  got = w.to_host();
  for (index_t i = 0; i < n; ++i) CHECK(got[i] == 2.0 * y[i]);
  waxpby(exec, 0.0, poisoned, 0.0, poisoned, w);
  for (double v : w.to_host()) CHECK(v == 0.0);
}

TEST_CASE("pointwise_multiply, fill and copy", "[vector_ops]") {
  const Executor exec = Executor::cpu();
  const auto x = test::random_vector(n, 6), y = test::random_vector(n, 7);
  const Vector dx = Vector::from_host(exec, x), dy = Vector::from_host(exec, y);
  Vector z(exec, n);
  pointwise_multiply(exec, dx, dy, z);
  const auto got = z.to_host();
  for (index_t i = 0; i < n; ++i) CHECK(got[i] == x[i] * y[i]);
  fill(exec, 4.25, z);
  for (double v : z.to_host()) CHECK(v == 4.25);
  copy(exec, dx, z);
  CHECK(z.to_host() == x);
}

TEST_CASE("vector kernels reject mismatched sizes", "[vector_ops]") {
  const Executor exec = Executor::cpu();
  Vector a(exec, 5), b(exec, 6), c(exec, 5);
  CHECK_THROWS_WITH(axpby(exec, 1.0, a, 1.0, b), Catch::Contains("axpby") && Catch::Contains("5"));
  CHECK_THROWS_AS(waxpby(exec, 1.0, a, 1.0, b, c), Error);
  CHECK_THROWS_AS(pointwise_multiply(exec, a, c, b), Error);
  CHECK_THROWS_AS(copy(exec, a, b), Error);
}
