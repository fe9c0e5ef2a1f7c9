// AMG for the low frequency systems: the rectangular batched SpMV of its transfers, a symmetric cycle
// that touches only its systems, fewer iterations than Jacobi and AIP, and the FFT path's solution.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "solvers/fft/batched_pcg.hpp"
#include "tests/fft/fft_test_support.hpp"

using namespace miniapp;
using test::column;
using test::norm;

namespace {

constexpr double tolerance = 1e-10;

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// Frequencies k = 0..3 as the FFT path lays them out: two systems each, shifts increasing.
const std::vector<double> shifts{0, 0, 0.02, 0.02, 0.08, 0.08, 0.3, 0.3};

// A converged batched solve of b with `blocks` leading blocks of `kind`: the iterations per system,
// the solution and the right-hand side as the solver left it (projected where singular), on the host.
struct BatchedSolve {
  std::vector<int> iterations;
  std::vector<double> x, b;
};

BatchedSolve solve_with(const Executor& exec, fft::BatchedPcg& pcg, const std::vector<double>& b_host,
                        fft::LeadingPreconditioner kind, int blocks) {
  pcg.preconditioner().use_leading_blocks(kind, blocks);
  Vector b = Vector::from_host(exec, b_host), x(exec, static_cast<index_t>(b_host.size()));
  const auto result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 3000});
  REQUIRE(result.converged);
  return {result.iterations, x.to_host(), b.to_host()};
}

}  // namespace

TEST_CASE("The batched SpMV of a rectangular matrix (an AMG transfer) equals one SpMV per system", "[fft][amg]") {
  const Executor exec = Executor::cpu();
  CsrMatrix r;  // 3 × 5
  r.rows = 3, r.cols = 5;
  r.row_ptr = {0, 2, 3, 6};
  r.col = {0, 4, 2, 1, 3, 4};
  r.val = {1.0, 0.5, 2.0, -1.0, 0.25, 3.0};
  const std::size_t S = 4;
  const auto x = test::random_vector(5 * S, 7);
  std::vector<double> y_host(3 * S, std::numeric_limits<double>::quiet_NaN());
  Vector y = Vector::from_host(exec, y_host);
  fft::batched_spmv(exec, DeviceCsr(exec, r), Vector::from_host(exec, x), y, static_cast<index_t>(S), {1, 3});
  y_host = y.to_host();
  for (std::size_t s = 0; s < S; ++s) {
    const auto got = column(y_host, S, s);
    if (s < 1 || s >= 3) {
      for (double v : got) CHECK(std::isnan(v));
      continue;
    }
    CHECK(test::distance(got, reference_spmv(r, column(x, S, s))) <= 1e-15);
  }
  Vector wrong(exec, 3 * S);  // x with the rows' count instead of the columns'
  CHECK_THROWS_WITH(fft::batched_spmv(exec, DeviceCsr(exec, r), wrong, y, static_cast<index_t>(S), {0, 4}),
                    Catch::Matchers::Contains("batched_spmv") && Catch::Matchers::Contains("x (columns × systems)"));
}

// The CPU kernel sums rows of equal length side by side (a dense coarse inverse), each row and system
// in stored order: bit for bit one SpMV per system, whatever the width and the rows left over.
TEST_CASE("The batched SpMV of dense rows equals one SpMV per system bit for bit", "[fft][amg]") {
  const Executor exec = Executor::cpu();
  CsrMatrix d;  // 10 × 10 dense: two groups of four rows and two left over
  d.rows = d.cols = 10;
  const auto values = test::random_vector(100, 11);
  for (index_t i = 0; i < d.rows; ++i)
    for (index_t j = 0; j < d.cols; ++j) {
      d.col.push_back(j);
      d.val.push_back(values[static_cast<std::size_t>(i * d.cols + j)]);
    }
  d.row_ptr.clear();
  for (index_t i = 0; i <= d.rows; ++i) d.row_ptr.push_back(i * d.cols);
  const std::size_t S = 12;
  const auto x = test::random_vector(10 * S, 5);
  const auto range = GENERATE(as<fft::SystemRange>{}, fft::SystemRange{0, 1}, fft::SystemRange{3, 5},
                              fft::SystemRange{1, 7}, fft::SystemRange{4, 12}, fft::SystemRange{0, 12});
  Vector y(exec, static_cast<index_t>(10 * S));
  fft::batched_spmv(exec, DeviceCsr(exec, d), Vector::from_host(exec, x), y, static_cast<index_t>(S), range);
  const auto y_host = y.to_host();
  for (index_t s = range.begin; s < range.end; ++s)
    CHECK(column(y_host, S, static_cast<std::size_t>(s)) == reference_spmv(d, column(x, S, static_cast<std::size_t>(s))));
}

TEST_CASE("The frequency AMG cycle is symmetric per system and touches only its systems", "[fft][amg]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(30, 26);  // 780 rows: a three-level hierarchy
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows), S = shifts.size();
  const fft::ShiftedSystems systems(exec, op.in_plane, op.z_coupling, shifts);
  fft::FrequencyPreconditioner m(exec, systems, 4, 1, op.in_plane.rows);
  m.set_amg_options({.coarse_rows = 40});
  m.use_leading_blocks(fft::LeadingPreconditioner::amg, 1);  // systems 0..3 AMG, 4..7 Jacobi
  REQUIRE_THAT(m.describe(), Catch::Matchers::Contains("AMG") && Catch::Matchers::Contains("3 levels"));
  const auto u = test::random_vector(n * S, 31), v = test::random_vector(n * S, 32);
  const auto apply = [&](const std::vector<double>& r) {
    Vector z = Vector::from_host(exec, std::vector<double>(n * S, std::numeric_limits<double>::quiet_NaN()));
    m.apply_leading(Vector::from_host(exec, r), z, {0, static_cast<index_t>(S)});
    return z.to_host();
  };
  const auto mu = apply(u), mv = apply(v);
  CHECK_THROWS_WITH(fft::FrequencyAmg(exec, systems, {0, 4}, op.in_plane.rows, {.smoother_degree = 2}),
                    Catch::Matchers::Contains("damped Jacobi (degree 1), not degree 2"));
  for (std::size_t s = 0; s < S; ++s) {
    CAPTURE(s);
    const auto us = column(u, S, s), vs = column(v, S, s), mus = column(mu, S, s), mvs = column(mv, S, s);
    if (s >= 4) {  // Jacobi's systems: left to the solver's update
      for (double x : mus) CHECK(std::isnan(x));
      continue;
    }
    CHECK(dot(vs, mus) == Approx(dot(us, mvs)).epsilon(1e-12));
    CHECK(dot(us, mus) > 0);
  }
}

TEST_CASE("AMG on the low frequencies takes fewer iterations than AIP and Jacobi there", "[fft][amg]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(40, 36);
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows), S = shifts.size();
  fft::BatchedPcg pcg(exec, op.in_plane, op.z_coupling, shifts, op.singular, 4);
  const auto b_host = test::random_vector(n * S, 9);
  const auto run = [&](fft::LeadingPreconditioner kind, int blocks) {
    const BatchedSolve solve = solve_with(exec, pcg, b_host, kind, blocks);
    for (std::size_t s = 0; s < S; ++s) {  // every system solved, whatever its preconditioner
      auto r = reference_spmv(fft::shifted_matrix(op.in_plane, op.z_coupling, shifts[s]), column(solve.x, S, s));
      const auto bs = column(solve.b, S, s);
      for (std::size_t c = 0; c < n; ++c) r[c] -= bs[c];
      CHECK(norm(r) <= 10 * tolerance * norm(bs));
    }
    return solve.iterations;
  };
  const auto jacobi = run(fft::LeadingPreconditioner::aip, 0), aip = run(fft::LeadingPreconditioner::aip, 1),
             amg = run(fft::LeadingPreconditioner::amg, 1);
  CAPTURE(jacobi, aip, amg);
  CHECK(amg[0] < aip[0] / 2);
  CHECK(amg[0] < jacobi[0] / 4);
  CHECK(amg[2] < aip[2]);
  CHECK(amg[6] == jacobi[6]);  // the second block is Jacobi in every run
  CHECK_THAT(pcg.preconditioner().describe(), Catch::Matchers::Contains("AMG (") &&
                                                  Catch::Matchers::Contains("on k = 0..1 (1 block), Jacobi on k = 2..3"));
}

TEST_CASE("A block of shift-dominated systems (large cells, thin layers) keeps a positive definite cycle", "[fft][amg]") {
  // Where the shift σ w outweighs the in-plane coupling (the far field of an extruded mesh at the high
  // frequencies), the hierarchy's coarse levels are nearly diagonal, so the smoothed prolongation's
  // Jacobi step overshoots and P 1 turns negative in places: a coarse mass lumped from P 1 would too,
  // and the block's shifted systems above its first would lose their definiteness.
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(100, 90);
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows);
  std::vector<double> w = op.z_coupling;
  for (double& x : w) x *= 1e3;  // thin layers: each cell's coupling across them far above its in-plane one
  const std::vector<double> high{2, 2, 3, 3};
  const std::size_t S = high.size();
  const fft::ShiftedSystems systems(exec, op.in_plane, w, high);
  fft::FrequencyPreconditioner m(exec, systems, 4, 1, op.in_plane.rows);
  m.use_leading_blocks(fft::LeadingPreconditioner::amg, 1);
  REQUIRE_THAT(m.describe(), Catch::Matchers::Contains("AMG"));
  for (unsigned seed = 40; seed < 45; ++seed) {
    const auto u = test::random_vector(n * S, seed);
    Vector z = Vector::from_host(exec, std::vector<double>(n * S, std::numeric_limits<double>::quiet_NaN()));
    m.apply_leading(Vector::from_host(exec, u), z, {0, static_cast<index_t>(S)});
    const auto mu = z.to_host();
    for (std::size_t s = 0; s < S; ++s) {
      CAPTURE(seed, s);
      CHECK(dot(column(u, S, s), column(mu, S, s)) > 0);
    }
  }
  fft::BatchedPcg pcg(exec, op.in_plane, w, high, false, 4);
  const auto b_host = test::random_vector(n * S, 50);
  const auto iterations = [&](fft::LeadingPreconditioner kind, int blocks) {
    const std::vector<int> per_system = solve_with(exec, pcg, b_host, kind, blocks).iterations;
    return *std::max_element(per_system.begin(), per_system.end());
  };
  const int jacobi = iterations(fft::LeadingPreconditioner::aip, 0), amg = iterations(fft::LeadingPreconditioner::amg, 1);
  CAPTURE(jacobi, amg);
  CHECK(amg < jacobi);
}
