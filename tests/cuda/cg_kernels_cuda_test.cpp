// CUDA fused CG kernels against the CPU reference: a few CG iterations from the same data on both
// backends (Jacobi-fused and generic), the device-side stop (breakdown, residual test) that lets the
// host queue iterations ahead, and determinism of the grid reductions. Sizes: fewer blocks than
// cg::max_partials, and more (grid-stride loops, 1024 partials).
#include <catch2/catch.hpp>

#include <memory>

#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/cg_kernels.hpp"
#include "operators/kernels/spmv.hpp"
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
  // `steps` iterations as Pcg queues them: the update (Jacobi fused, or a generic M, here the identity),
  // then the direction with its product; first q = A p and α, as the set-up leaves them.
  void iterate(int steps, bool jacobi) {
    cg_spmv_dot(exec, a, p, q, s);
    for (int k = 0; k < steps; ++k) {
      if (jacobi) {
        cg_update_jacobi(exec, d, p, q, x, r, z, s);
      } else {
        cg_update(exec, p, q, x, r, s);
        copy(exec, r, z);
        cg_rho(exec, r, z, s);
      }
      cg_direction_spmv_dot(exec, a, z, p, q, s);
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

TEST_CASE("CUDA cg_spmv_dot computes q bitwise as spmv does", "[cuda][cg_kernels]") {
  // Same row product (sell_row.cuh): a PCG step's q and a plain SpMV of p may not differ.
  const SellMatrix host = box_matrix(46, 1);
  Solve gpu(Executor::cuda(), host, 1e-14);
  Vector y(gpu.exec, gpu.n);
  spmv(gpu.exec, gpu.a, gpu.p, y);
  cg_spmv_dot(gpu.exec, gpu.a, gpu.p, gpu.q, gpu.s);
  CHECK(gpu.q.to_host() == y.to_host());
}

TEST_CASE("CUDA fused CG kernels give the same bits on 8-byte-aligned views", "[cuda][cg_kernels]") {
  // Vectors starting at an odd element take the 8-byte path of the pair kernels: same operations, so
  // the same x, r, z, p and scalars as the 16-byte path on aligned copies.
  const index_t n = GENERATE(as<index_t>{}, 1, 2, test::large_n);
  CAPTURE(n);
  const Executor gpu = Executor::cuda();
  struct Run {
    Vector d, p, q, x, r, z;
    CgScalars s;
  };
  // A = 2 I, so that cg_spmv_dot sets α = ρ / (2 p·p) ≠ 0 before the updates.
  CsrMatrix two{n, n, {0}, {}, {}};
  for (index_t i = 0; i < n; ++i) two.col.push_back(i), two.val.push_back(2.0), two.row_ptr.push_back(i + 1);
  const DeviceSell a(gpu, to_sell(two, 32));
  std::vector<std::unique_ptr<Run>> runs;
  for (index_t offset : {0, 1}) {
    const auto padded = [&](unsigned seed) {
      std::vector<double> v = test::random_vector(n, seed);
      v.insert(v.begin(), offset, 0.0);
      return Vector::from_host(gpu, v);
    };
    runs.push_back(std::make_unique<Run>(Run{padded(1), padded(2), padded(3), padded(4), padded(5), padded(6), CgScalars(gpu)}));
    Run& run = *runs.back();
    run.s.start(1.5, 1.0, 2.0, 1e-300);
    const auto at = [&](Vector& v) { return v.data() + offset; };
    const cg::ScalarsView view = run.s.view();
    cuda::cg_spmv_dot(gpu.stream(), a.view(), at(run.p), at(run.q), view);
    cuda::cg_update_jacobi(gpu.stream(), n, at(run.d), at(run.p), at(run.q), at(run.x), at(run.r), at(run.z), view);
    cuda::cg_direction_spmv_dot(gpu.stream(), a.view(), at(run.z), at(run.p), at(run.q), view);
    cuda::cg_update(gpu.stream(), n, at(run.p), at(run.q), at(run.x), at(run.r), view);
    cuda::cg_rho(gpu.stream(), n, at(run.r), at(run.z), view);
    cuda::cg_start(gpu.stream(), n, at(run.p), at(run.r), view, 1e-300, 100);
    cuda::cg_mean(gpu.stream(), n, at(run.x), view);
    cuda::cg_subtract_mean(gpu.stream(), n, at(run.x), view);
  }
  const auto tail = [](const Vector& v, index_t offset) {
    std::vector<double> h = v.to_host();
    return std::vector<double>(h.begin() + offset, h.end());
  };
  CHECK(runs[1]->s.values() == runs[0]->s.values());
  for (auto member : {&Run::x, &Run::r, &Run::z, &Run::p}) CHECK(tail((*runs[1]).*member, 1) == tail((*runs[0]).*member, 0));
}

TEST_CASE("CUDA solve set-up kernels match the CPU reference", "[cuda][cg_kernels]") {
  // cg_remove_mean and cg_start from the same data: the mean slot, the projected vector, ‖b‖ and the
  // initial residual test agree to round-off (different summation orders), the statuses exactly.
  const index_t nx = GENERATE(as<index_t>{}, 5, 99);
  CAPTURE(nx);
  const SellMatrix host = box_matrix(nx, 1);
  Solve cpu(Executor::cpu(), host, 1e-14), gpu(Executor::cuda(), host, 1e-14);
  for (Solve* t : {&cpu, &gpu}) {
    cg_remove_mean(t->exec, t->x, t->s);
    cg_start(t->exec, t->p, t->r, t->s, 1e-3, 50);
  }
  const auto ws = cpu.s.values(), gs = gpu.s.values();
  for (int k : {cg::mean, cg::b_norm, cg::residual_sq, cg::relative_residual}) {
    CAPTURE(k);
    CHECK(gs[k] == Approx(ws[k]).epsilon(1e-12));
  }
  CHECK(gs[cg::status] == ws[cg::status]);
  CHECK(gs[cg::iteration_cap] == 50);
  CHECK(test::relative_difference(gpu.x.to_host(), cpu.x.to_host()) <= 1e-12);
}

}  // namespace
}  // namespace miniapp
