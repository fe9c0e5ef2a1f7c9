#include <catch2/catch.hpp>

#include <array>

#include "operators/kernels/spmv.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

namespace {

void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-13));
}

// sELL with the given slice height and CSR, both against reference_spmv.
void check_spmv(const Executor& exec, const CsrMatrix& a, index_t slice_height, unsigned seed) {
  const std::vector<double> x = test::random_vector(a.cols, seed);
  const std::vector<double> want = reference_spmv(a, x);
  const Vector dx = Vector::from_host(exec, x);
  Vector y(exec, a.rows);
  spmv(exec, DeviceSell(exec, to_sell(a, slice_height)), dx, y);
  check_close(y.to_host(), want);
  Vector z(exec, a.rows);
  spmv(exec, DeviceCsr(exec, a), dx, z);
  check_close(z.to_host(), want);
}

}  // namespace

TEST_CASE("sELL and CSR SpMV match reference_spmv on random matrices", "[spmv]") {
  const Executor exec = Executor::cpu();
  const index_t slice_height = GENERATE(1, 4, 8, 16, 32);
  // Row counts that are not multiples of the slice height, empty rows (0 entries drawn), rectangles.
  CAPTURE(slice_height);
  check_spmv(exec, test::random_csr(37, 37, 6, 1), slice_height, 2);
  check_spmv(exec, test::random_csr(1001, 300, 9, 3), slice_height, 4);
  check_spmv(exec, test::random_csr(5, 40, 3, 5), slice_height, 6);
  check_spmv(exec, csr_from_triplets(7, 7, {}), slice_height, 7);
}

TEST_CASE("sELL SpMV of a 3D 7-point Laplacian", "[spmv]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix lap = test::laplacian_3d(13, 11, 9);
  check_spmv(exec, lap, 32, 8);
  // Zero-flux walls: the Laplacian of a constant vanishes.
  const DeviceSell a(exec, to_sell(lap, 32));
  const Vector ones = Vector::from_host(exec, std::vector<double>(lap.rows, 1.0));
  Vector y(exec, lap.rows);
  spmv(exec, a, ones, y);
  for (double v : y.to_host()) CHECK(v == 0.0);
}

TEST_CASE("spmv_multi equals separate SpMVs", "[spmv]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix host = test::random_csr(203, 150, 7, 9);
  const DeviceSell a(exec, to_sell(host, 32));
  for (int k = 1; k <= max_spmv_vectors; ++k) {
    std::vector<Vector> x, y;
    for (int i = 0; i < k; ++i) {
      x.push_back(Vector::from_host(exec, test::random_vector(host.cols, 20 + i)));
      y.emplace_back(exec, host.rows);
    }
    std::array<const Vector*, max_spmv_vectors> xp{};
    std::array<Vector*, max_spmv_vectors> yp{};
    for (int i = 0; i < k; ++i) xp[i] = &x[i], yp[i] = &y[i];
    spmv_multi(exec, a, std::span(xp.data(), k), std::span(yp.data(), k));
    for (int i = 0; i < k; ++i) {
      Vector single(exec, host.rows);
      spmv(exec, a, x[i], single);
      CHECK(y[i].to_host() == single.to_host());
    }
  }
}

TEST_CASE("The fused SpMVs equal the SpMV followed by its vector kernels", "[spmv]") {
  const Executor exec = Executor::cpu();
  const index_t slice_height = GENERATE(1, 8, 32);
  CAPTURE(slice_height);
  const CsrMatrix square = test::random_csr(203, 203, 7, 11), tall = test::random_csr(203, 41, 5, 12);
  const std::vector<double> u = test::random_vector(203, 13), b = test::random_vector(203, 14),
                            w = test::random_vector(203, 15);
  for (const CsrMatrix* host : {&square, &tall}) {
    const DeviceSell a(exec, to_sell(*host, slice_height));
    const std::vector<double> x = test::random_vector(host->cols, 16), ax = reference_spmv(*host, x);
    Vector y(exec, host->rows);
    spmv_axpby(exec, a, Vector::from_host(exec, x), 0.5, Vector::from_host(exec, u), -2.0, y);
    std::vector<double> want(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) want[i] = 0.5 * u[i] - 2.0 * ax[i];
    check_close(y.to_host(), want);
  }
  // u may be y: x + P e in place.
  const DeviceSell p(exec, to_sell(tall, slice_height));
  const std::vector<double> e = test::random_vector(41, 17), pe = reference_spmv(tall, e);
  Vector y = Vector::from_host(exec, u);
  spmv_axpby(exec, p, Vector::from_host(exec, e), 1.0, y, 1.0, y);
  std::vector<double> want(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) want[i] = u[i] + pe[i];
  check_close(y.to_host(), want);
  // y = x + w ⊙ (b − A x).
  const DeviceSell a(exec, to_sell(square, slice_height));
  const Vector dx = Vector::from_host(exec, u);
  Vector step(exec, 203);
  jacobi_step(exec, a, dx, Vector::from_host(exec, b), Vector::from_host(exec, w), step);
  const std::vector<double> au = reference_spmv(square, u);
  for (std::size_t i = 0; i < u.size(); ++i) want[i] = u[i] + w[i] * (b[i] - au[i]);
  check_close(step.to_host(), want);
  // Counted as one SpMV each, with the extra vectors' bytes.
  exec.counters().reset();
  jacobi_step(exec, a, dx, Vector::from_host(exec, b), Vector::from_host(exec, w), step);
  Vector plain(exec, 203);
  spmv(exec, a, dx, plain);
  const KernelTally spmvs = exec.counters().tally(KernelKind::spmv);
  CHECK(spmvs.calls == 2);
  CHECK(spmvs.bytes == Approx(2 * (12.0 * a.stored_entries() + 4.0 * (a.slice_count() + 1) + 16.0 * 203) + 16.0 * 203));
  Vector same = Vector::from_host(exec, u);
  CHECK_THROWS_WITH(jacobi_step(exec, a, same, dx, dx, same), Catch::Contains("jacobi_step"));
  CHECK_THROWS_WITH(jacobi_step(exec, p, Vector(exec, 41), dx, dx, step), Catch::Contains("square"));
}

TEST_CASE("SpMV rejects mismatched sizes, aliasing and vector counts", "[spmv]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix host = test::random_csr(10, 8, 3, 1);
  const DeviceSell a(exec, to_sell(host, 4));
  Vector x(exec, 8), y(exec, 10), wrong(exec, 9), square(exec, 10);
  CHECK_THROWS_AS(spmv(exec, a, wrong, y), Error);
  CHECK_THROWS_WITH(spmv(exec, a, x, wrong), Catch::Contains("spmv") && Catch::Contains("9"));
  CHECK_THROWS_AS(spmv(exec, DeviceCsr(exec, host), wrong, y), Error);
  const DeviceSell sq(exec, to_sell(test::random_csr(10, 10, 3, 2), 4));
  CHECK_THROWS_AS(spmv(exec, sq, square, square), Error);
  std::array<const Vector*, 2> xs{&x, &x};
  std::array<Vector*, 1> ys{&y};
  CHECK_THROWS_AS(spmv_multi(exec, a, xs, ys), Error);
}
