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

TEST_CASE("A matrix stored as its values on another's structure multiplies as itself, another shape is refused",
          "[spmv]") {
  const Executor exec = Executor::cpu();
  const index_t slice_height = GENERATE(1, 4, 32);
  CAPTURE(slice_height);
  const CsrMatrix a = test::random_csr(101, 80, 7, 11);  // empty rows and padding included
  const CsrMatrix b = absolute(a);                       // a's pattern, other values
  const DeviceSell structure(exec, a, slice_height);
  const DeviceSell on_structure = structure.with_values_of(b);
  CHECK(on_structure.view().col == structure.view().col);
  CHECK(on_structure.view().slice_ptr == structure.view().slice_ptr);
  CHECK(on_structure.view().val != structure.view().val);
  const std::vector<double> x = test::random_vector(a.cols, 12);
  Vector y(exec, a.rows);
  spmv(exec, on_structure, Vector::from_host(exec, x), y);
  check_close(y.to_host(), reference_spmv(b, x));
  CHECK_THROWS_WITH(structure.with_values_of(test::random_csr(100, 80, 7, 11)), Catch::Contains("with_values_of"));
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

TEST_CASE("spmv_interleaved is the SpMV of the matrix with the vectors interleaved", "[spmv]") {
  const Executor exec = Executor::cpu();
  const index_t slice_height = GENERATE(1, 8, 32);
  for (int k = 1; k <= max_spmv_vectors; ++k) {
    CAPTURE(slice_height, k);
    const index_t n = 61;  // each block's columns
    const CsrMatrix host = test::random_csr(203, k * n, 7, 30 + k);
    std::vector<Vector> x;
    std::vector<double> interleaved(static_cast<std::size_t>(k * n));
    for (int d = 0; d < k; ++d) {
      const std::vector<double> xd = test::random_vector(n, 40 + d);
      for (index_t j = 0; j < n; ++j) interleaved[static_cast<std::size_t>(k * j + d)] = xd[j];
      x.push_back(Vector::from_host(exec, xd));
    }
    std::array<const Vector*, max_spmv_vectors> xp{};
    for (int d = 0; d < k; ++d) xp[d] = &x[d];
    Vector y(exec, host.rows);
    spmv_interleaved(exec, DeviceSell(exec, to_sell(host, slice_height)), std::span(xp.data(), k), y);
    // Each row summed in its stored order, as reference_spmv sums it.
    CHECK(y.to_host() == reference_spmv(host, interleaved));
  }
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
  // Interleaved blocks: their count must divide the columns, each x_d hold cols / k entries.
  Vector half(exec, 4), third(exec, 3);
  CHECK_THROWS_WITH(spmv_interleaved(exec, a, std::array<const Vector*, 3>{&third, &third, &third}, y),
                    Catch::Contains("divide the columns"));
  CHECK_THROWS_WITH(spmv_interleaved(exec, a, std::array<const Vector*, 2>{&half, &third}, y),
                    Catch::Contains("spmv_interleaved") && Catch::Contains("3"));
}
