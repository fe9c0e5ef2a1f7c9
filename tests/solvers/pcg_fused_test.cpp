// The fused PCG (device-resident scalars, fused kernels) against the plain iteration it replaces, run
// here with the unfused front-end kernels and a host-side residual test; and the check interval, which
// must change neither the result nor the iteration count.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <vector>

#include "operators/backend/cuda/device.hpp"
#include "operators/kernels/dot.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/aip.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/pcg.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

namespace {

// −L of a zero-flux box plus `shift` on the diagonal: SPD for shift > 0; negative shifts make it
// indefinite.
CsrMatrix shifted_box(index_t nx, double shift) {
  CsrMatrix a = test::laplacian_3d(nx, nx + 1, nx + 2);
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) a.val[k] = -a.val[k] + (a.col[k] == r ? shift : 0.0);
  return a;
}

struct Solved {
  PcgResult result;
  std::vector<double> x;
};

// The PCG iteration before fusion: one front-end kernel per operation, α and β on the host, the
// residual tested on the host every iteration (non-singular systems, zero initial guess).
Solved unfused_pcg(const Executor& exec, const DeviceSell& a, const Preconditioner& m, const Vector& b,
                   const PcgOptions& options) {
  const index_t n = a.rows();
  Vector x(exec, n), r(exec, n), z(exec, n), p(exec, n), q(exec, n);
  fill(exec, 0.0, x);
  copy(exec, b, r);
  const double b_norm = std::sqrt(dot(exec, b, b));
  m.apply(r, z);
  double rho = dot(exec, r, z), residual = 1.0;
  copy(exec, z, p);
  int iterations = 0;
  while (residual > options.tolerance && iterations < options.max_iterations) {
    spmv(exec, a, p, q);
    const double alpha = rho / dot(exec, p, q);
    axpby(exec, alpha, p, 1.0, x);
    axpby(exec, -alpha, q, 1.0, r);
    m.apply(r, z);
    residual = std::sqrt(dot(exec, r, r)) / b_norm;
    const double rho_new = dot(exec, r, z);
    axpby(exec, 1.0, z, rho_new / rho, p);
    rho = rho_new;
    ++iterations;
  }
  return {{iterations, residual, residual <= options.tolerance, ""}, x.to_host()};
}

// Jacobi is fused into the update; AIP takes the update into its passes, in either form.
enum class Pc { jacobi, aip_two_pass, aip_product };

std::unique_ptr<Preconditioner> make_preconditioner(const Executor& exec, const CsrMatrix& a, Pc pc) {
  if (pc == Pc::jacobi) return std::make_unique<Jacobi>(exec, a);
  return std::make_unique<Aip>(exec, a, 1, exec.backend() == Backend::cuda ? 32 : 8,
                               pc == Pc::aip_product ? AipForm::product : AipForm::two_pass);
}

Solved fused_pcg(const Executor& exec, const CsrMatrix& a, const std::vector<double>& b, Pc pc,
                 const PcgOptions& options) {
  const DeviceSell device_a(exec, to_sell(a, exec.backend() == Backend::cuda ? 32 : 8));
  const auto m = make_preconditioner(exec, a, pc);
  const Vector device_b = Vector::from_host(exec, b);
  Vector x(exec, a.rows);
  fill(exec, 0.0, x);
  Pcg pcg(exec, a.rows);
  const PcgResult result = pcg.solve(device_a, *m, device_b, x, options);
  return {result, x.to_host()};
}

double max_difference(const std::vector<double>& x, const std::vector<double>& y) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) diff = std::max(diff, std::abs(x[i] - y[i])), norm = std::max(norm, std::abs(y[i]));
  return diff / norm;
}

}  // namespace

TEST_CASE("Fused PCG converges like the unfused iteration, whatever the check interval", "[pcg][fused]") {
  const Pc pc = GENERATE(Pc::jacobi, Pc::aip_two_pass, Pc::aip_product);
  CAPTURE(static_cast<int>(pc));
  const Executor exec = Executor::cpu();
  const CsrMatrix a = shifted_box(12, 0.01);
  const auto b = test::random_vector(a.rows, 41);
  const PcgOptions options{.tolerance = 1e-10, .max_iterations = 500};
  const DeviceSell device_a(exec, to_sell(a, 8));
  const auto m = make_preconditioner(exec, a, pc);
  const Solved reference = unfused_pcg(exec, device_a, *m, Vector::from_host(exec, b), options);
  REQUIRE(reference.result.converged);
  const Solved fused = fused_pcg(exec, a, b, pc, options);
  REQUIRE(fused.result.converged);
  // Only the reductions' summation order differs.
  CHECK(std::abs(fused.result.iterations - reference.result.iterations) <= 1);
  CHECK(max_difference(fused.x, reference.x) <= 1e-8);
  for (int interval : {2, 7, 1000}) {
    CAPTURE(interval);
    PcgOptions checked = options;
    checked.check_interval = interval;
    const Solved s = fused_pcg(exec, a, b, pc, checked);
    CHECK(s.result.converged);
    CHECK(s.result.relative_residual <= options.tolerance);
    CHECK(s.result.iterations <= reference.result.iterations + interval);
    // The device stops itself at the exact iteration: nothing depends on the interval but the
    // iterations queued, whole batches up to the first check past the stop.
    CHECK(s.result.iterations == fused.result.iterations);
    CHECK((s.result.queued_iterations % interval == 0 || s.result.queued_iterations == options.max_iterations));
    CHECK(s.result.queued_iterations >= s.result.iterations);
    CHECK(s.result.queued_iterations < s.result.iterations + interval);
    CHECK(s.result.iteration_kernels.host_reads() == (s.result.queued_iterations + interval - 1) / interval);  // one a batch
    CHECK(s.result.relative_residual == fused.result.relative_residual);
    CHECK(s.x == fused.x);
  }
}

TEST_CASE("Fused PCG counts its iterations' kernels apart from its set-up and finish", "[pcg][fused]") {
  // Solves of 6 and of 9 iterations (a tolerance never met): the iterations' counters grow by three
  // iterations' load, the rest of the solve's (set-up, mean removals) is the same in both; with a
  // check every 3 iterations one host read a batch.
  const Pc pc = GENERATE(Pc::jacobi, Pc::aip_two_pass);
  CAPTURE(static_cast<int>(pc));
  const Executor exec = Executor::cpu();
  const CsrMatrix a = shifted_box(8, 0.0);
  const DeviceSell device_a(exec, to_sell(a, 8));
  const auto m = make_preconditioner(exec, a, pc);
  const Vector b = Vector::from_host(exec, test::random_vector(a.rows, 5));
  Vector x(exec, a.rows);
  Pcg pcg(exec, a.rows);
  const auto solve = [&](int iterations) {
    fill(exec, 0.0, x);
    const KernelCounters before = exec.counters();
    const PcgOptions options{.tolerance = 0, .max_iterations = iterations, .singular = true, .check_interval = 3};
    const PcgResult r = pcg.solve(device_a, *m, b, x, options);
    REQUIRE(r.queued_iterations == iterations);
    return std::pair{exec.counters().since(before), r.iteration_kernels};
  };
  const auto [short_solve, short_iterations] = solve(6);
  const auto [long_solve, long_iterations] = solve(9);
  CHECK(short_iterations.host_reads() == 2);
  CHECK(long_iterations.host_reads() == 3);
  for (int k = 0; k < kernel_kind_count; ++k) {
    const auto kind = static_cast<KernelKind>(k);
    CAPTURE(k);
    const KernelTally s = short_iterations.tally(kind), l = long_iterations.tally(kind);
    CHECK(l.calls * 6 == s.calls * 9);
    CHECK(l.bytes * 6 == Approx(s.bytes * 9));
    CHECK(short_solve.tally(kind).calls - s.calls == long_solve.tally(kind).calls - l.calls);
    CHECK(short_solve.tally(kind).bytes - s.bytes == Approx(long_solve.tally(kind).bytes - l.bytes));
  }
  CHECK(short_iterations.total().calls > 0);
  CHECK(short_solve.total().calls > short_iterations.total().calls);  // the set-up is not an iteration
  CHECK(short_solve.host_reads() - short_iterations.host_reads() ==
        long_solve.host_reads() - long_iterations.host_reads());
}

TEST_CASE("Fused PCG hits an iteration cap that the check interval does not divide", "[pcg][fused]") {
  const CsrMatrix a = shifted_box(8, 0.0);
  const auto b = test::random_vector(a.rows, 42);
  const Solved s = fused_pcg(Executor::cpu(), a, b, Pc::jacobi,
                             {.tolerance = 1e-14, .max_iterations = 5, .singular = true, .check_interval = 3});
  CHECK_FALSE(s.result.converged);
  CHECK(s.result.iterations == 5);
  CHECK(s.result.queued_iterations == 5);  // two batches of 3, the second cut to the cap
  CHECK(s.result.iteration_kernels.host_reads() == 2);
  CHECK_THAT(s.result.warning, Catch::Contains("cap 5"));
}

TEST_CASE("Fused PCG reports a breakdown at the same iteration whatever the check interval", "[pcg][fused]") {
  const Pc pc = GENERATE(Pc::jacobi, Pc::aip_two_pass, Pc::aip_product);
  CAPTURE(static_cast<int>(pc));
  // −L − 0.5 I: symmetric and indefinite (−L has eigenvalues below 0.5), with a positive diagonal.
  const CsrMatrix a = shifted_box(6, -0.5);
  const auto b = test::random_vector(a.rows, 43);
  const Solved once = fused_pcg(Executor::cpu(), a, b, pc, {.tolerance = 1e-12, .max_iterations = 400});
  const Solved every4 =
      fused_pcg(Executor::cpu(), a, b, pc, {.tolerance = 1e-12, .max_iterations = 400, .check_interval = 4});
  REQUIRE_FALSE(once.result.converged);
  CHECK_THAT(once.result.warning, Catch::Contains("broke down"));
  CHECK(every4.result.warning == once.result.warning);
  CHECK(every4.result.iterations == once.result.iterations);
  CHECK(every4.x == once.x);
}

TEST_CASE("Pcg rejects a negative check interval", "[pcg][fused]") {
  const CsrMatrix a = shifted_box(4, 1.0);
  CHECK_THROWS_WITH(fused_pcg(Executor::cpu(), a, test::random_vector(a.rows, 1), Pc::jacobi, {.check_interval = -1}),
                    Catch::Contains("check_interval"));
}

TEST_CASE("Fused PCG on CUDA matches the CPU within one iteration", "[pcg][fused][cuda]") {
  if (cuda::device_count() == 0) {
    WARN("skipped: no CUDA device (or a build without CUDA)");
    return;
  }
  const Pc pc = GENERATE(Pc::jacobi, Pc::aip_two_pass, Pc::aip_product);
  const int interval = GENERATE(0, 1, 5);  // 5: a fused AIP iteration alternates r, so no recording
  CAPTURE(static_cast<int>(pc), interval);
  const CsrMatrix a = shifted_box(20, 0.0);
  const auto b = test::random_vector(a.rows, 44);
  const PcgOptions options{.tolerance = 1e-10, .max_iterations = 1000, .singular = true, .check_interval = interval};
  const Solved cpu = fused_pcg(Executor::cpu(), a, b, pc, options);
  const Solved gpu = fused_pcg(Executor::cuda(), a, b, pc, options);
  REQUIRE(cpu.result.converged);
  REQUIRE(gpu.result.converged);
  CHECK(std::abs(gpu.result.iterations - cpu.result.iterations) <= 1);
  CHECK(max_difference(gpu.x, cpu.x) <= 1e-8);
}
