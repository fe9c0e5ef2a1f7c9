// Fused CG kernels (CPU reference) against their unfused compositions of front-end kernels: vector
// results bitwise, reductions to 1e-14 of Σ|terms| (the fused ones sum per chunk), and the scalar
// steps (α, β, ρ, iteration count, residual test, breakdown) exactly as a host loop would take them.
#include <catch2/catch.hpp>

#include <cmath>
#include <omp.h>

#include "operators/kernels/cg_kernels.hpp"
#include "operators/kernels/dot.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

namespace {

// −L of a zero-flux box (positive semi-definite; pᵀ A p > 0 for random p), or L itself (negative).
CsrMatrix box_matrix(double sign) {
  CsrMatrix a = test::laplacian_3d(20, 21, 22);  // 9240 rows: several chunks of the CPU reductions
  for (double& v : a.val) v *= -sign;
  return a;
}

double abs_dot(const std::vector<double>& x, const std::vector<double>& y) {
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sum += std::abs(x[i] * y[i]);
  return sum;
}

// The vectors of one CG step on the CPU executor, from random data.
struct Step {
  Executor exec = Executor::cpu();
  DeviceSell a;
  index_t n;
  Vector p, q, x, r, z, d;
  CgScalars s{exec};
  explicit Step(double sign = 1, index_t slice_height = 8)
      : a(exec, to_sell(box_matrix(sign), slice_height)), n(a.rows()),
        p(Vector::from_host(exec, test::random_vector(n, 1))), q(exec, n),
        x(Vector::from_host(exec, test::random_vector(n, 2))), r(Vector::from_host(exec, test::random_vector(n, 3))),
        z(Vector::from_host(exec, test::random_vector(n, 4))), d(Vector::from_host(exec, test::random_vector(n, 5))) {
    s.start(0.75, 1.0, 2.0, 1e-12);
  }
  double slot(cg::Slot k) const { return s.values()[k]; }
};

}  // namespace

TEST_CASE("cg_spmv_dot is spmv then p·q, and sets α = ρ / σ", "[cg_kernels]") {
  const index_t height = GENERATE(as<index_t>{}, 8, 5);
  Step t(1, height);
  Vector q_ref(t.exec, t.n);
  spmv(t.exec, t.a, t.p, q_ref);
  const double sigma_ref = dot(t.exec, t.p, q_ref);
  cg_spmv_dot(t.exec, t.a, t.p, t.q, t.s);
  CHECK(t.q.to_host() == q_ref.to_host());
  const double sigma = t.slot(cg::curvature);
  CHECK(std::abs(sigma - sigma_ref) <= 1e-14 * abs_dot(t.p.to_host(), q_ref.to_host()));
  CHECK(t.slot(cg::alpha) == 0.75 / sigma);
  CHECK(t.s.read().status == cg::Status::running);
}

TEST_CASE("cg_update is two AXPYs and r·r, counts the iteration and tests the residual", "[cg_kernels]") {
  Step t;
  cg_spmv_dot(t.exec, t.a, t.p, t.q, t.s);
  const double alpha = t.slot(cg::alpha);
  Vector x_ref = Vector::from_host(t.exec, t.x.to_host()), r_ref = Vector::from_host(t.exec, t.r.to_host());
  axpby(t.exec, alpha, t.p, 1.0, x_ref);
  axpby(t.exec, -alpha, t.q, 1.0, r_ref);
  cg_update(t.exec, t.p, t.q, t.x, t.r, t.s);
  CHECK(t.x.to_host() == x_ref.to_host());
  CHECK(t.r.to_host() == r_ref.to_host());
  const double gamma = t.slot(cg::residual_sq);
  CHECK(std::abs(gamma - dot(t.exec, r_ref, r_ref)) <= 1e-14 * gamma);
  const CgProgress progress = t.s.read();
  CHECK(progress.iterations == 1);
  CHECK(progress.relative_residual == std::sqrt(gamma) / 2.0);
  CHECK(progress.status == cg::Status::running);  // tolerance 1e-12
  // A tolerance above ‖r‖/‖b‖ stops the solve at this iteration.
  t.s.start(0.75, 1.0, 2.0, 1e6);
  cg_spmv_dot(t.exec, t.a, t.p, t.q, t.s);
  cg_update(t.exec, t.p, t.q, t.x, t.r, t.s);
  CHECK(t.s.read().status == cg::Status::residual_test);
  CHECK(t.s.read().iterations == 1);
}

TEST_CASE("cg_update_jacobi is two AXPYs, z = d ∘ r and the fused r·r, r·z", "[cg_kernels]") {
  Step t;
  cg_spmv_dot(t.exec, t.a, t.p, t.q, t.s);
  const double alpha = t.slot(cg::alpha);
  Vector x_ref = Vector::from_host(t.exec, t.x.to_host()), r_ref = Vector::from_host(t.exec, t.r.to_host());
  Vector z_ref(t.exec, t.n);
  axpby(t.exec, alpha, t.p, 1.0, x_ref);
  axpby(t.exec, -alpha, t.q, 1.0, r_ref);
  pointwise_multiply(t.exec, t.d, r_ref, z_ref);
  const Vector* lhs[] = {&r_ref, &r_ref};
  const Vector* rhs[] = {&r_ref, &z_ref};
  double dots[2];
  multi_dot(t.exec, lhs, rhs, dots);
  cg_update_jacobi(t.exec, t.d, t.p, t.q, t.x, t.r, t.z, t.s);
  CHECK(t.x.to_host() == x_ref.to_host());
  CHECK(t.r.to_host() == r_ref.to_host());
  CHECK(t.z.to_host() == z_ref.to_host());
  const auto rh = r_ref.to_host(), zh = z_ref.to_host();
  CHECK(std::abs(t.slot(cg::residual_sq) - dots[0]) <= 1e-14 * dots[0]);
  CHECK(std::abs(t.slot(cg::rho) - dots[1]) <= 1e-14 * abs_dot(rh, zh));
  CHECK(t.slot(cg::beta) == t.slot(cg::rho) / 0.75);
  CHECK(t.s.read().iterations == 1);
}

TEST_CASE("cg_rho sets β and ρ", "[cg_kernels]") {
  Step t;
  cg_rho(t.exec, t.r, t.z, t.s);
  const double rho = t.slot(cg::rho);
  CHECK(std::abs(rho - dot(t.exec, t.r, t.z)) <= 1e-14 * abs_dot(t.r.to_host(), t.z.to_host()));
  CHECK(t.slot(cg::beta) == rho / 0.75);
}

TEST_CASE("cg_direction_spmv_dot is p = z + β p, q = A z + β q and p·q, with α = ρ / σ", "[cg_kernels]") {
  const index_t height = GENERATE(as<index_t>{}, 8, 5);
  Step t(1, height);
  cg_rho(t.exec, t.r, t.z, t.s);  // β ≠ 0
  const double beta = t.slot(cg::beta), rho = t.slot(cg::rho);
  // q holds A p on entry, as in PCG.
  spmv(t.exec, t.a, t.p, t.q);
  Vector p_ref = Vector::from_host(t.exec, t.p.to_host()), az(t.exec, t.n);
  axpby(t.exec, 1.0, t.z, beta, p_ref);
  spmv(t.exec, t.a, t.z, az);
  const std::vector<double> q_old = t.q.to_host(), azh = az.to_host();
  std::vector<double> q_ref(q_old.size());
  for (std::size_t i = 0; i < q_ref.size(); ++i) q_ref[i] = azh[i] + beta * q_old[i];
  cg_direction_spmv_dot(t.exec, t.a, t.z, t.p, t.q, t.s);
  CHECK(t.p.to_host() == p_ref.to_host());
  CHECK(t.q.to_host() == q_ref);
  // q = A p of the new p, up to round-off.
  Vector ap(t.exec, t.n);
  spmv(t.exec, t.a, t.p, ap);
  const std::vector<double> aph = ap.to_host();
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < aph.size(); ++i) diff = std::max(diff, std::abs(aph[i] - q_ref[i])), norm = std::max(norm, std::abs(aph[i]));
  CHECK(diff <= 1e-12 * norm);
  const double sigma = t.slot(cg::curvature);
  CHECK(std::abs(sigma - dot(t.exec, p_ref, t.q)) <= 1e-14 * abs_dot(p_ref.to_host(), q_ref));
  CHECK(t.slot(cg::alpha) == rho / sigma);
  CHECK_THROWS_WITH(cg_direction_spmv_dot(t.exec, t.a, t.z, t.p, t.p, t.s), Catch::Contains("p and q"));
  CHECK_THROWS_WITH(cg_direction_spmv_dot(t.exec, t.a, t.z, t.z, t.q, t.s), Catch::Contains("z and p"));
}

TEST_CASE("A non-positive curvature stops the solve and every later kernel is a no-op", "[cg_kernels]") {
  Step t(-1);  // L: negative semi-definite
  cg_spmv_dot(t.exec, t.a, t.p, t.q, t.s);
  const CgProgress progress = t.s.read();
  CHECK(progress.status == cg::Status::breakdown);
  CHECK(progress.curvature < 0);
  CHECK(progress.iterations == 0);
  const auto slots = t.s.values();
  const auto p = t.p.to_host(), q = t.q.to_host(), x = t.x.to_host(), r = t.r.to_host(), z = t.z.to_host();
  cg_spmv_dot(t.exec, t.a, t.z, t.q, t.s);
  cg_update(t.exec, t.z, t.z, t.x, t.r, t.s);
  cg_update_jacobi(t.exec, t.d, t.z, t.z, t.x, t.r, t.q, t.s);
  cg_rho(t.exec, t.r, t.x, t.s);
  cg_direction_spmv_dot(t.exec, t.a, t.x, t.p, t.q, t.s);
  CHECK(t.s.values() == slots);
  CHECK(t.p.to_host() == p);
  CHECK(t.q.to_host() == q);
  CHECK(t.x.to_host() == x);
  CHECK(t.r.to_host() == r);
  CHECK(t.z.to_host() == z);
}

TEST_CASE("Fused CG reductions do not depend on the number of threads", "[cg_kernels]") {
  const int threads = omp_get_max_threads();
  std::vector<double> slots[2];
  for (int k = 0; k < 2; ++k) {
    omp_set_num_threads(k == 0 ? 1 : 3);
    Step t;
    cg_spmv_dot(t.exec, t.a, t.p, t.q, t.s);
    cg_update_jacobi(t.exec, t.d, t.p, t.q, t.x, t.r, t.z, t.s);
    cg_rho(t.exec, t.r, t.x, t.s);
    slots[k] = t.s.values();
  }
  omp_set_num_threads(threads);
  CHECK(slots[0] == slots[1]);
}

TEST_CASE("Fused CG kernels reject mismatched and aliased vectors", "[cg_kernels]") {
  Step t;
  Vector short_vector(t.exec, t.n - 1);
  CHECK_THROWS_WITH(cg_update(t.exec, t.p, short_vector, t.x, t.r, t.s), Catch::Contains("cg_update") && Catch::Contains("q"));
  CHECK_THROWS_WITH(cg_update(t.exec, t.p, t.q, t.x, t.x, t.s), Catch::Contains("x and r"));
  CHECK_THROWS_WITH(cg_spmv_dot(t.exec, t.a, t.p, t.p, t.s), Catch::Contains("p and q"));
  CHECK_THROWS_WITH(cg_update_jacobi(t.exec, t.d, t.p, t.q, t.x, t.r, t.r, t.s), Catch::Contains("r and z"));
}

TEST_CASE("Fused CG kernels count their bytes in the kernel classes of the header", "[cg_kernels]") {
  Step t;
  const KernelCounters before = t.exec.counters();
  cg_spmv_dot(t.exec, t.a, t.p, t.q, t.s);
  cg_update_jacobi(t.exec, t.d, t.p, t.q, t.x, t.r, t.z, t.s);
  cg_update(t.exec, t.p, t.q, t.x, t.r, t.s);
  cg_rho(t.exec, t.r, t.z, t.s);
  cg_direction_spmv_dot(t.exec, t.a, t.z, t.p, t.q, t.s);
  const KernelCounters d = t.exec.counters().since(before);
  const double n = t.n;
  CHECK(d.tally(KernelKind::spmv).calls == 2);
  CHECK(d.tally(KernelKind::spmv).bytes ==
        2 * (12.0 * t.a.stored_entries() + 4.0 * (t.a.slice_count() + 1)) + 16.0 * n + 40.0 * n);
  CHECK(d.tally(KernelKind::axpy).calls == 2);
  CHECK(d.tally(KernelKind::axpy).bytes == (64.0 + 48.0) * n);
  CHECK(d.tally(KernelKind::dot).calls == 1);
  CHECK(d.tally(KernelKind::dot).bytes == 16.0 * n);
}

TEST_CASE("cg_remove_mean subtracts the mean and leaves it in the mean slot", "[cg_kernels]") {
  Step t;
  const std::vector<double> v = t.x.to_host();
  double sum = 0;
  for (double e : v) sum += e;
  const double mean = sum / static_cast<double>(t.n);
  const KernelCounters before = t.exec.counters();
  cg_remove_mean(t.exec, t.x, t.s);
  const KernelCounters d = t.exec.counters().since(before);
  CHECK(t.slot(cg::mean) == Approx(mean).epsilon(1e-13));
  const std::vector<double> got = t.x.to_host();
  for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == v[i] - t.slot(cg::mean));
  CHECK(d.tally(KernelKind::dot).bytes == 8.0 * t.n);
  CHECK(d.tally(KernelKind::axpy).bytes == 16.0 * t.n);
  CHECK(d.host_reads() == 0);
  Vector empty(t.exec, 0);
  CHECK_THROWS_WITH(cg_remove_mean(t.exec, empty, t.s), Catch::Contains("cg_remove_mean") && Catch::Contains("empty"));
}

TEST_CASE("cg_start sets ‖b‖ and the initial residual test on the executor", "[cg_kernels]") {
  Step t;
  const double bb = dot(t.exec, t.p, t.p), rr = dot(t.exec, t.r, t.r);
  const double relative = std::sqrt(rr / bb);
  SECTION("a residual above the tolerance: the solve runs, with no iteration done and the cap set") {
    cg_update(t.exec, t.p, t.q, t.x, t.r, t.s);  // leaves an iteration count to be reset
    const std::vector<double> r = t.r.to_host();
    const Vector r_now = Vector::from_host(t.exec, r);
    const double rr_now = dot(t.exec, r_now, r_now);
    cg_start(t.exec, t.p, r_now, t.s, 1e-3 * std::sqrt(rr_now / bb), 37);
    const CgProgress progress = t.s.read();
    CHECK(progress.status == cg::Status::running);
    CHECK(progress.iterations == 0);
    CHECK(progress.relative_residual == Approx(std::sqrt(rr_now / bb)).epsilon(1e-13));
    CHECK(t.slot(cg::b_norm) == Approx(std::sqrt(bb)).epsilon(1e-13));
    CHECK(t.slot(cg::iteration_cap) == 37);
  }
  SECTION("a residual at or below the tolerance stops the solve before it starts") {
    cg_start(t.exec, t.p, t.r, t.s, 2 * relative, 100);
    CHECK(t.s.read().status == cg::Status::residual_test);
  }
  SECTION("b = 0: the solve is over, x = 0 being the solution") {
    Vector zero(t.exec, t.n);
    fill(t.exec, 0.0, zero);
    cg_start(t.exec, zero, t.r, t.s, 1e-8, 100);
    const CgProgress progress = t.s.read();
    CHECK(progress.status == cg::Status::zero_rhs);
    CHECK(progress.relative_residual == 0);
  }
  SECTION("a NaN in r fails the test and stops the solve") {
    std::vector<double> r = t.r.to_host();
    r[5] = std::nan("");
    const Vector bad = Vector::from_host(t.exec, r);
    cg_start(t.exec, t.p, bad, t.s, 1e-8, 100);
    const CgProgress progress = t.s.read();
    CHECK(progress.status == cg::Status::residual_test);
    CHECK(std::isnan(progress.relative_residual));
  }
  CHECK_THROWS_WITH(cg_start(t.exec, t.p, t.r, t.s, -1.0, 10), Catch::Contains("cg_start"));
}

TEST_CASE("cg_loop_test counts runs, a loop goes on while the solve runs and a whole body fits the cap", "[cg_kernels]") {
  Step t;
  cg_start(t.exec, t.p, t.r, t.s, 0.0, 10);
  cg_loop_test(t.exec, t.s, 4, {});
  CHECK(t.s.read().loop_runs == 1);
  std::vector<double> slots = t.s.values();
  CHECK(cg::loop_continues(slots.data(), 4));  // 0 + 4 ≤ 10
  slots[cg::iterations] = 7;
  CHECK_FALSE(cg::loop_continues(slots.data(), 4));  // 7 + 4 > 10: the host runs the rest
  slots[cg::iterations] = 6;
  CHECK(cg::loop_continues(slots.data(), 4));
  slots[cg::status] = static_cast<double>(cg::Status::residual_test);
  CHECK_FALSE(cg::loop_continues(slots.data(), 4));
  CHECK(slots[cg::loop_runs] == 5);
  CHECK_THROWS_WITH(cg_loop_test(t.exec, t.s, 0, {}), Catch::Contains("cg_loop_test"));
}
