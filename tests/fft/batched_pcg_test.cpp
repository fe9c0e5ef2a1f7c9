// The unified frequency kernels and solver: batched SpMV vs one SpMV per frequency, per-system
// stopping, AIP blocks, and the greedy preconditioner choice.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "solvers/fft/batched_pcg.hpp"
#include "tests/fft/fft_test_support.hpp"

using namespace miniapp;
using test::norm;

namespace {

constexpr double tolerance = 1e-10;

// Column s of an interleaved vector.
std::vector<double> column(const std::vector<double>& v, std::size_t systems, std::size_t s) {
  std::vector<double> out(v.size() / systems);
  for (std::size_t c = 0; c < out.size(); ++c) out[c] = v[c * systems + s];
  return out;
}

}  // namespace

TEST_CASE("The unified batched SpMV equals one SpMV per frequency system", "[fft]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(9, 7);
  const std::vector<double> shifts{0, 0, 0.3, 0.3, 1.2, 1.2, 2.5, 2.5, 4, 4};
  const std::size_t S = shifts.size(), n = static_cast<std::size_t>(op.in_plane.rows);
  const fft::ShiftedSystems systems(exec, op.in_plane, op.z_coupling, shifts);
  const auto x = test::random_vector(n * S, 4);
  const auto range = GENERATE(as<fft::SystemRange>{}, fft::SystemRange{0, 10}, fft::SystemRange{3, 8});
  std::vector<double> y_host(n * S, std::numeric_limits<double>::quiet_NaN());
  Vector y = Vector::from_host(exec, y_host);
  fft::batched_shifted_spmv(exec, systems.view(), Vector::from_host(exec, x), y, static_cast<index_t>(S), range);
  y_host = y.to_host();
  for (std::size_t s = 0; s < S; ++s) {
    const auto got = column(y_host, S, s);
    if (static_cast<index_t>(s) < range.begin || static_cast<index_t>(s) >= range.end) {
      for (double v : got) CHECK(std::isnan(v));  // outside the range: untouched
      continue;
    }
    const auto want = reference_spmv(fft::shifted_matrix(op.in_plane, op.z_coupling, shifts[s]), column(x, S, s));
    CHECK(test::distance(got, want) <= 1e-14 * norm(want));
  }
}

TEST_CASE("Batched PCG solves each shifted system to its own tolerance and drops it out", "[fft]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(12, 10);
  const std::vector<double> shifts{0, 0.01, 1, 100};
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows), S = shifts.size();
  const int aip_blocks = GENERATE(0, 1);
  fft::BatchedPcg pcg(exec, op.in_plane, op.z_coupling, shifts, op.singular, 2);
  pcg.preconditioner().use_aip_blocks(aip_blocks);
  auto b_host = test::random_vector(n * S, 3);
  Vector b = Vector::from_host(exec, b_host), x(exec, static_cast<index_t>(n * S));
  const auto result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 2000});
  REQUIRE(result.converged);
  b_host = b.to_host();  // projected where singular
  const auto x_host = x.to_host();
  for (std::size_t s = 0; s < S; ++s) {
    const auto xs = column(x_host, S, s), bs = column(b_host, S, s);
    auto r = reference_spmv(fft::shifted_matrix(op.in_plane, op.z_coupling, shifts[s]), xs);
    for (std::size_t c = 0; c < n; ++c) r[c] -= bs[c];
    CHECK(norm(r) <= 10 * tolerance * norm(bs));
  }
  if (aip_blocks == 0) CHECK(result.iterations.back() < result.iterations.front() / 2);
}

TEST_CASE("Iterations queued past a system's stop leave its solution and iteration count unchanged", "[fft]") {
  // With check_interval > 1 the host learns of a stop only at the next read; the scalar kernels must
  // freeze a stopped system (α = β = 0) so that the result is that of reading after every iteration.
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(12, 10);
  const std::vector<double> shifts{0, 0, 0.01, 0.01, 1, 1, 100, 100};
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows), S = shifts.size();
  fft::BatchedPcg pcg(exec, op.in_plane, op.z_coupling, shifts, op.singular, 4);
  pcg.preconditioner().use_aip_blocks(GENERATE(0, 1));
  const auto b_host = test::random_vector(n * S, 5);
  const auto run = [&](int interval) {
    Vector b = Vector::from_host(exec, b_host), x(exec, static_cast<index_t>(n * S));
    const auto result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 2000, .check_interval = interval});
    REQUIRE(result.converged);
    return std::pair{result, x.to_host()};
  };
  const auto [every, x_every] = run(1);
  const auto [batched, x_batched] = run(7);
  CHECK(batched.iterations == every.iterations);
  CHECK(batched.relative_residual == every.relative_residual);
  CHECK(x_batched == x_every);  // bitwise
  CHECK(every.iterations[6] < every.iterations[0]);  // the systems did stop at different iterations
}

TEST_CASE("AIP on a block of low frequencies takes fewer iterations than Jacobi there", "[fft]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(16, 14);
  const std::vector<double> shifts{0, 0, 0.05, 0.05, 2, 2, 4, 4};
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows), S = shifts.size();
  fft::BatchedPcg pcg(exec, op.in_plane, op.z_coupling, shifts, op.singular, 4);
  REQUIRE(pcg.preconditioner().blocks() == 2);
  const auto b_host = test::random_vector(n * S, 8);
  const auto run = [&](int aip_blocks) {
    pcg.preconditioner().use_aip_blocks(aip_blocks);
    Vector b = Vector::from_host(exec, b_host), x(exec, static_cast<index_t>(n * S));
    const auto result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 2000});
    REQUIRE(result.converged);
    return result.iterations;
  };
  const auto jacobi = run(0), aip = run(1);
  CHECK(aip[0] < jacobi[0]);
  CHECK(aip[2] < jacobi[2]);
  CHECK(aip[6] == jacobi[6]);  // the second block is Jacobi in both
  CHECK_THAT(pcg.preconditioner().describe(), Catch::Matchers::Contains("AIP-1 on k = 0..1") &&
                                                  Catch::Matchers::Contains("Jacobi on k = 2..3"));
}

TEST_CASE("The greedy preconditioner choice depends only on the costs", "[fft]") {
  const auto chooser = [](std::vector<double> costs) {
    std::vector<int> asked;
    const int m = fft::choose_aip_blocks(static_cast<int>(costs.size()) - 1, [&](int k) {
      asked.push_back(k);
      return costs[k];
    });
    return std::make_pair(m, asked);
  };
  // Stops at the first configuration that does not gain 2 %, without looking further.
  CHECK(chooser({10, 8, 7, 7.5, 1}) == std::make_pair(2, std::vector<int>{0, 1, 2, 3}));
  CHECK(chooser({10, 12, 1}) == std::make_pair(0, std::vector<int>{0, 1}));
  CHECK(chooser({10, 9.9, 1}).first == 0);  // 1 % is noise
  CHECK(chooser({10, 5, 2, 1}) == std::make_pair(3, std::vector<int>{0, 1, 2, 3}));
  CHECK(chooser({10, std::numeric_limits<double>::infinity()}).first == 0);  // an unavailable AIP
  CHECK(chooser({10}).first == 0);
}

TEST_CASE("Preconditioner blocks keep a frequency's two parts together", "[fft]") {
  CHECK(fft::block_systems_for(66, 8) == 10);
  CHECK(fft::block_systems_for(258, 8) == 34);
  CHECK(fft::block_systems_for(6, 8) == 4);
}
