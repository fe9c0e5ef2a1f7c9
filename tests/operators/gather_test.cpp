#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "operators/kernels/gather.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

using test::random_indices;

TEST_CASE("gather picks x at the listed indices, in list order", "[gather]") {
  const Executor exec = Executor::cpu();
  const index_t n = 1037;
  const index_t m = GENERATE(as<index_t>{}, 0, 1, 400);
  const auto x = test::random_vector(n, 5);
  const auto idx = random_indices(n, m, 6);
  Vector y(exec, m);
  gather(exec, Array<index_t>::from_host(exec, idx), Vector::from_host(exec, x), y);
  const auto got = y.to_host();
  for (index_t i = 0; i < m; ++i) CHECK(got[i] == x[idx[i]]);
  CHECK(exec.counters().tally(KernelKind::copy).calls >= 1);
}

TEST_CASE("scatter writes only the listed entries of y", "[gather]") {
  const Executor exec = Executor::cpu();
  const index_t n = 1037, m = 300;
  const auto x = test::random_vector(m, 7);
  const auto idx = random_indices(n, m, 8);
  const double untouched = std::numeric_limits<double>::quiet_NaN();
  Vector y = Vector::from_host(exec, std::vector<double>(n, untouched));
  scatter(exec, Array<index_t>::from_host(exec, idx), Vector::from_host(exec, x), y);
  const auto got = y.to_host();
  std::vector<char> listed(n, 0);
  for (index_t i = 0; i < m; ++i) {
    CHECK(got[idx[i]] == x[i]);
    listed[idx[i]] = 1;
  }
  for (index_t j = 0; j < n; ++j)
    if (!listed[j]) CHECK(std::isnan(got[j]));
}

TEST_CASE("gather rejects an output of the wrong length", "[gather]") {
  const Executor exec = Executor::cpu();
  Vector x(exec, 10), y(exec, 3);
  const auto idx = Array<index_t>::from_host(exec, std::vector<index_t>{1, 2});
  CHECK_THROWS_WITH(gather(exec, idx, x, y), Catch::Contains("gather") && Catch::Contains("y has 3 entries"));
}
