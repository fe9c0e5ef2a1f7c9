#include <catch2/catch.hpp>

#include <array>

#include "operators/kernels/dot.hpp"
#include "tests/operators/matrix_generators.hpp"
#include "tests/thread_counts.hpp"

using namespace miniapp;

namespace {
double plain_dot(const std::vector<double>& x, const std::vector<double>& y) {
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sum += x[i] * y[i];
  return sum;
}
}  // namespace

TEST_CASE("dot matches a plain loop", "[dot]") {
  const Executor exec = Executor::cpu();
  const index_t n = GENERATE(0, 1, 1000, 100003);
  const auto x = test::random_vector(n, 1), y = test::random_vector(n, 2);
  const Vector dx = Vector::from_host(exec, x), dy = Vector::from_host(exec, y);
  CHECK(dot(exec, dx, dy) == Approx(plain_dot(x, y)).margin(1e-12));
  CHECK(dot(exec, dx, dx) == Approx(plain_dot(x, x)).margin(1e-12));
}

TEST_CASE("multi_dot matches separate plain loops", "[dot]") {
  const Executor exec = Executor::cpu();
  const index_t n = 5003;
  std::vector<std::vector<double>> h;
  std::vector<Vector> d;
  for (unsigned s = 0; s < 5; ++s) {
    h.push_back(test::random_vector(n, 10 + s));
    d.push_back(Vector::from_host(exec, h.back()));
  }
  // Pairs share vectors, as in a fused CG step (r·z, r·r, p·q, z·z).
  const std::array<int, 4> xi{0, 0, 2, 1}, yi{1, 0, 3, 4};
  for (int k = 1; k <= max_fused_dots; ++k) {
    std::array<const Vector*, 4> x{}, y{};
    for (int j = 0; j < k; ++j) x[j] = &d[xi[j]], y[j] = &d[yi[j]];
    std::array<double, 4> out{};
    multi_dot(exec, std::span(x.data(), k), std::span(y.data(), k), std::span(out.data(), k));
    for (int j = 0; j < k; ++j) CHECK(out[j] == Approx(plain_dot(h[xi[j]], h[yi[j]])).margin(1e-12));
  }
}

TEST_CASE("dot and multi_dot give the same sums on 1 and 3 threads", "[dot]") {
  // Enough rows for many chunks: an OpenMP reduction clause would add the threads' shares in the
  // order they finish, another rounding from one run to the next.
  const Executor exec = Executor::cpu();
  const index_t n = 1'000'003;
  const Vector x = Vector::from_host(exec, test::random_vector(n, 21)), y = Vector::from_host(exec, test::random_vector(n, 22));
  const auto [one, three] = test::on_one_and_three_threads([&] {
    std::array<const Vector*, 2> xs{&x, &y}, ys{&y, &y};
    std::array<double, 3> sums{dot(exec, x, y), 0, 0};
    multi_dot(exec, xs, ys, std::span(sums.data() + 1, 2));
    return sums;
  });
  CHECK(one == three);
}

TEST_CASE("dot and multi_dot reject mismatched sizes and counts", "[dot]") {
  const Executor exec = Executor::cpu();
  Vector a(exec, 5), b(exec, 6);
  CHECK_THROWS_WITH(dot(exec, a, b), Catch::Contains("dot") && Catch::Contains("6"));
  std::array<const Vector*, 2> x{&a, &a}, y{&a, &b};
  std::array<double, 2> out{};
  CHECK_THROWS_AS(multi_dot(exec, x, y, out), Error);
  CHECK_THROWS_AS(multi_dot(exec, x, std::span(y.data(), 1), out), Error);
}

TEST_CASE("dot into a one-entry vector gives the value of the synchronous dot and counts the same", "[dot]") {
  const Executor exec = Executor::cpu();
  const index_t n = GENERATE(0, 7, 100003);
  const Vector x = Vector::from_host(exec, test::random_vector(n, 3)), y = Vector::from_host(exec, test::random_vector(n, 4));
  Vector result = Vector::from_host(exec, std::vector<double>{42.0});
  exec.counters().reset();
  dot(exec, x, y, result);
  const KernelTally into = exec.counters().tally(KernelKind::dot);
  exec.counters().reset();
  const double want = dot(exec, x, y);
  CHECK(result.to_host()[0] == want);
  CHECK(into.calls == 1);
  CHECK(into.bytes == exec.counters().tally(KernelKind::dot).bytes);
  Vector two(exec, 2);
  CHECK_THROWS_WITH(dot(exec, x, y, two), Catch::Contains("result has 2 entries, expected 1"));
}

TEST_CASE("multi_dot into a vector gives the synchronous values without a host read", "[dot]") {
  const Executor exec = Executor::cpu();
  const index_t n = GENERATE(0, 5003);
  std::vector<Vector> d;
  for (unsigned s = 0; s < 3; ++s) d.push_back(Vector::from_host(exec, test::random_vector(n, 20 + s)));
  const std::array<const Vector*, 3> x{&d[0], &d[1], &d[0]}, y{&d[1], &d[2], &d[0]};
  std::array<double, 3> want{};
  multi_dot(exec, x, y, want);
  Vector results = Vector::from_host(exec, std::vector<double>{7, 7, 7, 7, 7});
  Vector into = results.window(1, 3);
  exec.counters().reset();
  multi_dot(exec, x, y, into);
  CHECK(exec.counters().host_reads() == 0);
  CHECK(exec.counters().tally(KernelKind::dot).bytes == 8.0 * n * 3);  // three distinct vectors
  const std::vector<double> got = results.to_host();
  CHECK(got[0] == 7);
  CHECK(got[4] == 7);
  for (int j = 0; j < 3; ++j) CHECK(got[1 + j] == want[j]);
  Vector two(exec, 2);
  CHECK_THROWS_WITH(multi_dot(exec, x, y, two), Catch::Contains("2 results"));
}
