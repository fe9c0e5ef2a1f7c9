// Jacobi-PCG on a random SPD system and on the singular periodic Poisson problem (CPU backend).
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/backend/cuda/device.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/pcg.hpp"

using namespace miniapp;

namespace {

std::vector<double> random_vector(index_t n, unsigned seed, double lo = -1, double hi = 1) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> value(lo, hi);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& x : v) x = value(engine);
  return v;
}

// A random sparse symmetric matrix, made positive definite by diagonal dominance, with a widely
// varying diagonal so that Jacobi matters.
CsrMatrix random_spd(index_t n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_int_distribution<index_t> column(0, n - 1);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<Triplet> triplets;
  std::vector<double> row_abs(static_cast<std::size_t>(n), 0);
  for (index_t r = 0; r < n; ++r)
    for (int k = 0; k < 4; ++k) {
      const index_t c = column(engine);
      if (c == r) continue;
      const double v = value(engine);
      triplets.push_back({r, c, v});
      triplets.push_back({c, r, v});
      row_abs[r] += std::abs(v);
      row_abs[c] += std::abs(v);
    }
  for (index_t r = 0; r < n; ++r) triplets.push_back({r, r, row_abs[r] * (1.01 + 10.0 * (r % 7))});
  return csr_from_triplets(n, n, std::move(triplets));
}

double relative_residual(const CsrMatrix& a, const std::vector<double>& x, const std::vector<double>& b) {
  const auto ax = reference_spmv(a, x);
  double r2 = 0, b2 = 0;
  for (std::size_t i = 0; i < b.size(); ++i) r2 += (b[i] - ax[i]) * (b[i] - ax[i]), b2 += b[i] * b[i];
  return std::sqrt(r2 / b2);
}

void remove_mean(std::vector<double>& v) {
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  for (double& x : v) x -= mean;
}

// −L of a periodic hex box: symmetric positive semi-definite, constants in its null space.
CsrMatrix periodic_poisson(index_t n) {
  const auto m = mesh::make_hex_box({.cells = {n, n + 1, n + 2}, .periodic = {true, true, true}});
  CsrMatrix a = fv::laplacian_matrix(m, mesh::compute_geometry(m));
  for (double& v : a.val) v = -v;
  return a;
}

struct Solved {
  PcgResult result;
  std::vector<double> x;
};

Solved solve(const CsrMatrix& a, const std::vector<double>& b, const std::vector<double>& guess,
             const PcgOptions& options, const Executor& exec = Executor::cpu()) {
  const DeviceSell device_a(exec, to_sell(a, exec.backend() == Backend::cuda ? 32 : 8));
  const Jacobi jacobi(exec, a);
  const Vector device_b = Vector::from_host(exec, b);
  Vector x = Vector::from_host(exec, guess);
  Pcg pcg(exec, a.rows);
  const PcgResult result = pcg.solve(device_a, jacobi, device_b, x, options);
  return {result, x.to_host()};
}

}  // namespace

TEST_CASE("PCG with Jacobi solves a random SPD system", "[pcg]") {
  const CsrMatrix a = random_spd(300, 7);
  const auto b = random_vector(a.rows, 8);
  const auto solved = solve(a, b, std::vector<double>(300, 0.0), {.tolerance = 1e-10, .max_iterations = 300});
  CHECK(solved.result.converged);
  CHECK(solved.result.warning.empty());
  CHECK(solved.result.iterations > 1);
  CHECK(solved.result.relative_residual <= 1e-10);
  CHECK(relative_residual(a, solved.x, b) <= 1e-9);
}

// Jacobi that asks for batches of three iterations.
class BatchedJacobi final : public Preconditioner {
 public:
  BatchedJacobi(const Executor& exec, const CsrMatrix& a) : jacobi_(exec, a) {}
  void apply(const Vector& r, Vector& z) const override { jacobi_.apply(r, z); }
  int batch_iterations() const override { return 3; }

 private:
  Jacobi jacobi_;
};

TEST_CASE("PCG queues iterations in the batches its preconditioner asks for", "[pcg]") {
  const CsrMatrix a = random_spd(300, 7);
  const auto b = random_vector(a.rows, 8);
  const Executor exec = Executor::cpu();
  const DeviceSell device_a(exec, to_sell(a, 8));
  const BatchedJacobi m(exec, a);
  const Vector device_b = Vector::from_host(exec, b);
  Vector x = Vector::from_host(exec, std::vector<double>(300, 0.0));
  Pcg pcg(exec, a.rows);
  const PcgResult asked = pcg.solve(device_a, m, device_b, x, {.tolerance = 1e-10, .max_iterations = 300});
  REQUIRE(asked.converged);
  CHECK(asked.queued_iterations % 3 == 0);
  CHECK(asked.queued_iterations >= asked.iterations);
  CHECK(asked.queued_iterations < asked.iterations + 3);
  // An explicit interval overrides the preconditioner's wish.
  Vector y = Vector::from_host(exec, std::vector<double>(300, 0.0));
  const PcgResult told =
      pcg.solve(device_a, m, device_b, y, {.tolerance = 1e-10, .max_iterations = 300, .check_interval = 1});
  CHECK(told.queued_iterations == told.iterations);
}

TEST_CASE("PCG converges from a non-zero initial guess", "[pcg]") {
  const CsrMatrix a = random_spd(200, 3);
  auto exact = random_vector(a.rows, 4);
  const auto b = reference_spmv(a, exact);
  const auto solved = solve(a, b, random_vector(a.rows, 5, 10, 20), {.tolerance = 1e-12, .max_iterations = 200});
  REQUIRE(solved.result.converged);
  for (std::size_t i = 0; i < exact.size(); ++i) CHECK(solved.x[i] == Approx(exact[i]).margin(1e-9));
  // Starting from the solution itself takes no iteration.
  const auto again = solve(a, b, solved.x, {.tolerance = 1e-8, .max_iterations = 200});
  CHECK(again.result.converged);
  CHECK(again.result.iterations == 0);
}

TEST_CASE("PCG solves the singular periodic Poisson problem", "[pcg]") {
  const CsrMatrix a = periodic_poisson(6);
  auto exact = random_vector(a.rows, 11);
  remove_mean(exact);
  auto b = reference_spmv(a, exact);
  // An inconsistent part (a constant) in b: singular mode must project it away.
  for (double& v : b) v += 0.25;
  const auto solved = solve(a, b, random_vector(a.rows, 12), {.tolerance = 1e-10, .max_iterations = 1000, .singular = true});
  REQUIRE(solved.result.converged);
  double mean = 0;
  for (double v : solved.x) mean += v;
  CHECK(std::abs(mean / static_cast<double>(a.rows)) <= 1e-12);
  for (std::size_t i = 0; i < exact.size(); ++i) CHECK(solved.x[i] == Approx(exact[i]).margin(1e-8));
}

TEST_CASE("PCG reports non-convergence when the iteration cap is hit", "[pcg]") {
  const CsrMatrix a = periodic_poisson(8);
  auto b = random_vector(a.rows, 21);
  const auto solved = solve(a, b, std::vector<double>(b.size(), 0.0),
                            {.tolerance = 1e-12, .max_iterations = 3, .singular = true});
  CHECK_FALSE(solved.result.converged);
  CHECK(solved.result.iterations == 3);
  CHECK(solved.result.relative_residual > 1e-12);
  CHECK_THAT(solved.result.warning, Catch::Contains("did not converge") && Catch::Contains("cap 3"));
}

TEST_CASE("PCG returns zero for a zero right-hand side", "[pcg]") {
  const CsrMatrix a = random_spd(50, 1);
  const auto solved = solve(a, std::vector<double>(50, 0.0), random_vector(50, 2), {});
  CHECK(solved.result.converged);
  CHECK(solved.result.iterations == 0);
  for (double v : solved.x) CHECK(v == 0);
  // Singular mode: a constant b is zero once projected.
  const CsrMatrix periodic = periodic_poisson(4);
  const auto constant = solve(periodic, std::vector<double>(periodic.rows, 0.5), random_vector(periodic.rows, 3),
                              {.singular = true});
  CHECK(constant.result.converged);
  CHECK(constant.result.iterations == 0);
  for (double v : constant.x) CHECK(v == 0);
}

TEST_CASE("Jacobi rejects a matrix with a non-positive diagonal", "[pcg]") {
  const CsrMatrix a = csr_from_triplets(2, 2, {{0, 0, 1.0}, {1, 1, -2.0}});
  CHECK_THROWS_WITH(Jacobi(Executor::cpu(), a), Catch::Contains("row 1"));
}

TEST_CASE("PCG runs unchanged on the CUDA backend and matches the CPU", "[pcg][cuda]") {
  if (cuda::device_count() == 0) {
    WARN("skipped: no CUDA device (or a build without CUDA)");
    return;
  }
  const CsrMatrix a = periodic_poisson(12);
  auto b = random_vector(a.rows, 31);
  const std::vector<double> guess(b.size(), 0.0);
  const PcgOptions options{.tolerance = 1e-10, .max_iterations = 1000, .singular = true};
  const auto cpu = solve(a, b, guess, options);
  const auto gpu = solve(a, b, guess, options, Executor::cuda());
  REQUIRE(cpu.result.converged);
  REQUIRE(gpu.result.converged);
  // Reductions sum in another order on the device: iteration counts may differ by round-off.
  CHECK(std::abs(gpu.result.iterations - cpu.result.iterations) <= 2);
  for (std::size_t i = 0; i < b.size(); ++i) CHECK(gpu.x[i] == Approx(cpu.x[i]).margin(1e-8));
}
