// The CUDA AIP apply against the CPU reference (label gpu; exits 77, skipped, without a device): z and
// the CG scalars of apply_with_rho on a Laplacian larger than many blocks, at both slice heights.
#include <catch2/catch.hpp>

#include <cmath>
#include <iostream>
#include <vector>

#include "operators/backend/cuda/device.hpp"
#include "operators/kernels/cg_kernels.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "solvers/aip.hpp"

using namespace miniapp;

namespace {

// −L of the 7-point Laplacian on an n³ box, Dirichlet (SPD), 6 on the diagonal.
CsrMatrix box_laplacian(int n) {
  std::vector<Triplet> t;
  auto id = [&](int i, int j, int k) { return static_cast<index_t>(i + n * (j + n * k)); };
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        t.push_back({id(i, j, k), id(i, j, k), 6.0});
        const int c[3] = {i, j, k};
        for (int d = 0; d < 3; ++d)
          for (int step : {-1, 1}) {
            int e[3] = {c[0], c[1], c[2]};
            e[d] += step;
            if (e[d] >= 0 && e[d] < n) t.push_back({id(i, j, k), id(e[0], e[1], e[2]), -1.0});
          }
      }
  const index_t rows = static_cast<index_t>(n) * n * n;
  return csr_from_triplets(rows, rows, std::move(t));
}

double max_relative(const std::vector<double>& got, const std::vector<double>& want) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    diff = std::max(diff, std::abs(got[i] - want[i]));
    norm = std::max(norm, std::abs(want[i]));
  }
  return std::isnan(diff) ? INFINITY : diff / norm;
}

}  // namespace

TEST_CASE("CUDA AIP apply matches the CPU", "[aip][cuda]") {
  const CsrMatrix a = box_laplacian(47);  // 103823 rows: many blocks, not a multiple of 8 or 32
  const int level = GENERATE(1, 2);
  const index_t slice_height = GENERATE(as<index_t>{}, 8, 32);
  const AipForm form = level == 1 ? GENERATE(AipForm::two_pass, AipForm::product) : AipForm::two_pass;
  INFO("level " << level << ", slice height " << slice_height << ", product " << (form == AipForm::product));
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  std::vector<double> r(a.rows);
  for (index_t i = 0; i < a.rows; ++i) r[i] = std::sin(0.37 * i) + 0.1;
  std::vector<double> z[2], slots[2];
  int k = 0;
  for (const Executor* exec : {&cpu, &gpu}) {
    const Aip m(*exec, a, level, slice_height, form);
    const Vector rv = Vector::from_host(*exec, r);
    Vector zv(*exec, a.rows);
    CgScalars s(*exec);
    s.start(3.0, 0.5, 1.0, 1e-8);
    m.apply_with_rho(rv, zv, s);
    z[k] = zv.to_host();
    slots[k++] = s.values();
    // The apply with ρ fused gives the z of the plain apply, bit for bit (the same row products).
    Vector plain(*exec, a.rows);
    m.apply(rv, plain);
    CHECK(plain.to_host() == z[k - 1]);
  }
  CHECK(max_relative(z[1], z[0]) < 1e-13);
  CHECK(slots[1][cg::rho] == Approx(slots[0][cg::rho]).epsilon(1e-12));
  CHECK(slots[1][cg::beta] == Approx(slots[0][cg::beta]).epsilon(1e-12));
}

TEST_CASE("CUDA AIP apply with the update joined is the update then the apply, and matches the CPU", "[aip][cuda]") {
  const CsrMatrix a = box_laplacian(47);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const auto host_vector = [&](double phase) {
    std::vector<double> v(a.rows);
    for (index_t i = 0; i < a.rows; ++i) v[i] = std::sin(0.37 * i + phase) + 0.1;
    return v;
  };
  struct Run {
    Vector p, q, x, r, r_new, z;
    CgScalars s;
  };
  const DeviceSell a_cpu(cpu, to_sell(a, 32)), a_gpu(gpu, to_sell(a, 32));
  const auto make = [&](const Executor& exec) {
    Run run{Vector::from_host(exec, host_vector(0)), Vector(exec, a.rows), Vector::from_host(exec, host_vector(1)),
            Vector::from_host(exec, host_vector(2)), Vector(exec, a.rows), Vector(exec, a.rows), CgScalars(exec)};
    run.s.start(3.0, 0.5, 4.0, 1e-8);
    cg_spmv_dot(exec, exec.backend() == Backend::cuda ? a_gpu : a_cpu, run.p, run.q, run.s);  // q = A p and α
    return run;
  };
  const AipForm form = GENERATE(AipForm::two_pass, AipForm::product);
  CAPTURE(form == AipForm::product);
  const Aip m_cpu(cpu, a, 1, 32, form), m_gpu(gpu, a, 1, 32, form);
  Run on_cpu = make(cpu), fused = make(gpu), apart = make(gpu);
  m_cpu.apply_advancing(on_cpu.p, on_cpu.q, on_cpu.x, on_cpu.r, on_cpu.r_new, on_cpu.z, on_cpu.s);
  m_gpu.apply_advancing(fused.p, fused.q, fused.x, fused.r, fused.r_new, fused.z, fused.s);
  cg_update(gpu, apart.p, apart.q, apart.x, apart.r, apart.s);
  REQUIRE(m_gpu.apply_with_rho(apart.r, apart.z, apart.s));
  // On the GPU the joined kernels form the same values as the update and the apply apart: the gathered
  // r − α q is the r the update writes, so x, r, z, ρ and β are bitwise those; γ is summed elsewhere.
  CHECK(fused.x.to_host() == apart.x.to_host());
  CHECK(fused.r.to_host() == host_vector(2));  // the old residual is left as it was
  CHECK(fused.r_new.to_host() == apart.r.to_host());
  CHECK(fused.z.to_host() == apart.z.to_host());
  if (form == AipForm::two_pass) {  // the residual updated in place, as the solver runs two passes
    Run in_place = make(gpu);
    m_gpu.apply_advancing(in_place.p, in_place.q, in_place.x, in_place.r, in_place.r, in_place.z, in_place.s);
    CHECK(in_place.r.to_host() == apart.r.to_host());
    CHECK(in_place.z.to_host() == apart.z.to_host());
  }
  const std::vector<double> got = fused.s.values(), want = apart.s.values(), reference = on_cpu.s.values();
  for (const int slot : {cg::rho, cg::beta, cg::iterations, cg::status}) {
    CAPTURE(slot);
    CHECK(got[slot] == want[slot]);
  }
  CHECK(got[cg::residual_sq] == Approx(want[cg::residual_sq]).epsilon(1e-13));
  // Against the CPU: round-off.
  CHECK(max_relative(fused.x.to_host(), on_cpu.x.to_host()) < 1e-13);
  CHECK(max_relative(fused.r_new.to_host(), on_cpu.r_new.to_host()) < 1e-12);
  CHECK(max_relative(fused.z.to_host(), on_cpu.z.to_host()) < 1e-12);
  CHECK(got[cg::iterations] == reference[cg::iterations]);
  for (const int slot : {cg::rho, cg::beta, cg::residual_sq, cg::relative_residual}) {
    CAPTURE(slot);
    CHECK(got[slot] == Approx(reference[slot]).epsilon(1e-12));
  }
}
