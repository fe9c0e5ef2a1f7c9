// The CUDA AIP apply against the CPU reference (label gpu; exits 77, skipped, without a device): z and
// the CG scalars of apply_with_rho on a Laplacian larger than many blocks, at both slice heights.
#include <catch2/catch.hpp>

#include <cmath>
#include <iostream>
#include <vector>

#include "operators/backend/cuda/device.hpp"
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
  INFO("level " << level << ", slice height " << slice_height);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  std::vector<double> r(a.rows);
  for (index_t i = 0; i < a.rows; ++i) r[i] = std::sin(0.37 * i) + 0.1;
  std::vector<double> z[2], slots[2];
  int k = 0;
  for (const Executor* exec : {&cpu, &gpu}) {
    const Aip m(*exec, a, level, slice_height);
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

TEST_CASE("CUDA AIP apply with the residual test matches the CPU", "[aip][cuda]") {
  const CsrMatrix a = box_laplacian(47);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  std::vector<double> r(a.rows);
  for (index_t i = 0; i < a.rows; ++i) r[i] = std::sin(0.37 * i) + 0.1;
  std::vector<double> slots[2];
  int k = 0;
  for (const Executor* exec : {&cpu, &gpu}) {
    const Aip m(*exec, a, 1, 32);
    const Vector rv = Vector::from_host(*exec, r);
    Vector zv(*exec, a.rows), plain(*exec, a.rows);
    CgScalars s(*exec);
    s.start(3.0, 0.5, 1.0, 1e-8);
    m.apply_with_residual_test(rv, zv, s);
    m.apply(rv, plain);
    CHECK(plain.to_host() == zv.to_host());  // the same second pass, with two sums instead of one
    slots[k++] = s.values();
  }
  CHECK(slots[1][cg::iterations] == 1);
  CHECK(slots[1][cg::status] == slots[0][cg::status]);
  for (const int slot : {cg::rho, cg::beta, cg::residual_sq, cg::relative_residual}) {
    CAPTURE(slot);
    CHECK(slots[1][slot] == Approx(slots[0][slot]).epsilon(1e-12));
  }
}
