// CUDA fused CG kernels against the CPU reference: a few CG iterations from the same data on both
// backends (Jacobi-fused and generic), the device-side stop (breakdown, residual test) that lets the
// host queue iterations ahead, and determinism of the grid reductions. Sizes: fewer blocks than
// cg::max_partials, and more (grid-stride loops, 1024 partials).
#include <catch2/catch.hpp>

#include "operators/kernels/cg_kernels.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

// −L of a zero-flux box (sign 1, positive semi-definite) or L (sign −1, negative semi-definite).
SellMatrix box_matrix(index_t nx, double sign) {
  CsrMatrix a = test::laplacian_3d(nx, nx + 1, nx + 2);
  for (double& v : a.val) v *= -sign;
  return to_sell(a, 32);
}

// The state of a CG solve on one executor, from the same host data on every executor.
struct Solve {
  Executor exec;
  DeviceSell a;
  index_t n;
  Vector p, q, x, r, z, d;
  CgScalars s;
  Solve(const Executor& e, const SellMatrix& host, double tolerance)
      : exec(e), a(e, host), n(host.rows), p(Vector::from_host(e, test::random_vector(n, 1))), q(e, n),
        x(Vector::from_host(e, test::random_vector(n, 2))), r(Vector::from_host(e, test::random_vector(n, 3))),
        z(e, n), d(Vector::from_host(e, test::random_vector(n, 5))), s(e) {
    copy(exec, r, z);
    s.start(1.5, 1.0, 2.0, tolerance);
  }
  // `steps` iterations as Pcg queues them: Jacobi fused, or a generic M (here the identity).
  void iterate(int steps, bool jacobi) {
    for (int k = 0; k < steps; ++k) {
      cg_spmv_dot(exec, a, p, q, s);
      if (jacobi) {
        cg_update_jacobi(exec, d, p, q, x, r, z, s);
      } else {
        cg_update(exec, p, q, x, r, s);
        copy(exec, r, z);
        cg_rho(exec, r, z, s);
      }
      cg_direction(exec, z, p, s);
    }
  }
};

TEST_CASE("CUDA fused CG iterations match the CPU reference", "[cuda][cg_kernels]") {
  const index_t nx = GENERATE(as<index_t>{}, 5, 46, 99);  // 210, 103776 and 1009800 rows
  const bool jacobi = GENERATE(true, false);
  CAPTURE(nx, jacobi);
  const SellMatrix host = box_matrix(nx, 1);
  Solve cpu(Executor::cpu(), host, 1e-14), gpu(Executor::cuda(), host, 1e-14);
  cpu.iterate(3, jacobi);
  gpu.iterate(3, jacobi);
  const CgProgress want = cpu.s.read(), got = gpu.s.read();
  CHECK(got.status == want.status);
  CHECK(got.iterations == want.iterations);
  const auto ws = cpu.s.values(), gs = gpu.s.values();
  for (int k : {cg::rho, cg::alpha, cg::beta, cg::curvature, cg::residual_sq, cg::relative_residual}) {
    CAPTURE(k);
    CHECK(gs[k] == Approx(ws[k]).epsilon(1e-11));
  }
  CHECK(test::relative_difference(gpu.x.to_host(), cpu.x.to_host()) <= 1e-11);
  CHECK(test::relative_difference(gpu.r.to_host(), cpu.r.to_host()) <= 1e-11);
  CHECK(test::relative_difference(gpu.z.to_host(), cpu.z.to_host()) <= 1e-11);
  CHECK(test::relative_difference(gpu.p.to_host(), cpu.p.to_host()) <= 1e-11);
  CHECK(test::relative_difference(gpu.q.to_host(), cpu.q.to_host()) <= 1e-11);
}

TEST_CASE("CUDA fused CG reductions are deterministic", "[cuda][cg_kernels]") {
  const SellMatrix host = box_matrix(99, 1);
  Solve first(Executor::cuda(), host, 1e-14), second(Executor::cuda(), host, 1e-14);
  first.iterate(4, true);
  second.iterate(4, true);
  CHECK(first.s.values() == second.s.values());
  CHECK(first.x.to_host() == second.x.to_host());
}

TEST_CASE("CUDA fused CG kernels stop on the device and ignore iterations queued after", "[cuda][cg_kernels]") {
  const bool jacobi = GENERATE(true, false);
  CAPTURE(jacobi);
  SECTION("residual test: a tolerance above ‖r‖/‖b‖ stops after one iteration") {
    Solve cpu(Executor::cpu(), box_matrix(46, 1), 1e6), gpu(Executor::cuda(), box_matrix(46, 1), 1e6);
    cpu.iterate(1, jacobi);
    gpu.iterate(1, jacobi);
    const auto x = gpu.x.to_host(), p = gpu.p.to_host();
    gpu.iterate(5, jacobi);
    CHECK(gpu.s.read().status == cg::Status::residual_test);
    CHECK(gpu.s.read().iterations == 1);
    CHECK(gpu.x.to_host() == x);
    CHECK(gpu.p.to_host() == p);
    CHECK(test::relative_difference(x, cpu.x.to_host()) <= 1e-12);
  }
  SECTION("breakdown: σ < 0 leaves x and r as they were") {
    Solve gpu(Executor::cuda(), box_matrix(46, -1), 1e-14);
    const auto x = gpu.x.to_host(), r = gpu.r.to_host();
    gpu.iterate(4, jacobi);
    const CgProgress progress = gpu.s.read();
    CHECK(progress.status == cg::Status::breakdown);
    CHECK(progress.iterations == 0);
    CHECK(progress.curvature < 0);
    CHECK(gpu.x.to_host() == x);
    CHECK(gpu.r.to_host() == r);
  }
}

}  // namespace
}  // namespace miniapp
