// The fused SpMVs of AMG's cycle (spmv_axpby, jacobi_step) against the plain SpMV of the same matrix
// followed by the vector operation, for double- and float-valued sELL matrices and CSR, on the CPU
// backend.
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "operators/kernels/aip_kernels.hpp"
#include "operators/kernels/fused_spmv.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

namespace {

// A matrix in one of the layouts the fused passes take, with the plain product and the counted matrix
// bytes to compare with.
enum class Layout { sell_double, sell_float, csr };

struct Stored {
  Layout layout;
  DeviceSell doubles;
  std::optional<DeviceSellFloat> floats;
  std::optional<DeviceCsr> csr;
  Stored(const Executor& exec, const CsrMatrix& m, index_t h, Layout layout)
      : layout(layout), doubles(exec, to_sell(m, h)) {
    if (layout == Layout::sell_float) floats.emplace(exec, to_sell(m, h));
    if (layout == Layout::csr) csr.emplace(exec, m);
  }
  std::vector<double> product(const Executor& exec, const Vector& x) const {
    Vector y(exec, doubles.rows());
    if (floats) spmv(exec, *floats, x, y);
    else if (csr) spmv(exec, *csr, x, y);
    else spmv(exec, doubles, x, y);
    return y.to_host();
  }
  void axpby(const Executor& exec, const Vector& x, double alpha, const Vector& u, double beta, Vector& y) const {
    if (floats) spmv_axpby(exec, *floats, x, alpha, u, beta, y);
    else if (csr) spmv_axpby(exec, *csr, x, alpha, u, beta, y);
    else spmv_axpby(exec, doubles, x, alpha, u, beta, y);
  }
  void jacobi(const Executor& exec, const Vector& x, const Vector& v, const Vector& b, const Vector& w,
              Vector& y) const {
    if (floats) jacobi_step(exec, *floats, x, v, b, w, y);
    else if (csr) jacobi_step(exec, *csr, x, v, b, w, y);
    else jacobi_step(exec, doubles, x, v, b, w, y);
  }
  double matrix_bytes() const {
    if (csr) return 12.0 * csr->nnz() + 4.0 * (csr->rows() + 1);
    return (floats ? 8.0 : 12.0) * doubles.stored_entries() + 4.0 * (doubles.slice_count() + 1);
  }
};

void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-14));
}

}  // namespace

TEST_CASE("The fused SpMVs equal the SpMV followed by its vector operation", "[spmv]") {
  const Executor exec = Executor::cpu();
  const index_t h = GENERATE(1, 8, 32);  // 8: the AVX2 slices where the CPU has them (sELL)
  const Layout layout = GENERATE(Layout::sell_double, Layout::sell_float, Layout::csr);
  CAPTURE(h, static_cast<int>(layout));
  const index_t n = 203;
  const CsrMatrix square = test::random_csr(n, n, 7, 11), tall = test::random_csr(n, 41, 5, 12);
  const std::vector<double> u = test::random_vector(n, 13), b = test::random_vector(n, 14),
                            w = test::random_vector(n, 15);
  const Vector du = Vector::from_host(exec, u), db = Vector::from_host(exec, b), dw = Vector::from_host(exec, w);
  std::vector<double> want(static_cast<std::size_t>(n));

  SECTION("y = alpha u + beta A x, into another vector and in place (u = y)") {
    for (const CsrMatrix* host : {&square, &tall}) {
      const Stored a(exec, *host, h, layout);
      const Vector x = Vector::from_host(exec, test::random_vector(host->cols, 16));
      const std::vector<double> ax = a.product(exec, x);
      Vector y(exec, n);
      a.axpby(exec, x, 0.5, du, -2.0, y);
      for (index_t i = 0; i < n; ++i) want[i] = 0.5 * u[i] - 2.0 * ax[i];
      check_close(y.to_host(), want);
      Vector in_place = Vector::from_host(exec, u);
      a.axpby(exec, x, 1.0, in_place, 1.0, in_place);
      for (index_t i = 0; i < n; ++i) want[i] = u[i] + ax[i];
      check_close(in_place.to_host(), want);
    }
  }
  SECTION("y = x + w (b - A x), and a block of rows reading v from a window of x") {
    const Stored a(exec, square, h, layout);
    const std::vector<double> au = a.product(exec, du);
    Vector y(exec, n);
    a.jacobi(exec, du, du, db, dw, y);
    for (index_t i = 0; i < n; ++i) want[i] = u[i] + w[i] * (b[i] - au[i]);
    check_close(y.to_host(), want);
    // Rows [100, 203) of the square matrix as their own matrix, as a rank's other rows are.
    const index_t first = 100, count = n - first;
    CsrMatrix block = csr_from_triplets(count, n, {});
    block.row_ptr.assign(square.row_ptr.begin() + first, square.row_ptr.end());
    for (index_t& p : block.row_ptr) p -= square.row_ptr[first];
    block.col.assign(square.col.begin() + square.row_ptr[first], square.col.end());
    block.val.assign(square.val.begin() + square.row_ptr[first], square.val.end());
    const Stored rows(exec, block, h, layout);
    Vector y_rows(exec, count);
    rows.jacobi(exec, du, du.window(first, count), db.window(first, count), dw.window(first, count), y_rows);
    check_close(y_rows.to_host(), std::vector<double>(want.begin() + first, want.end()));
  }
  SECTION("Counted as one SpMV each, with the other vectors' bytes; x's own rows not counted twice") {
    const Stored a(exec, square, h, layout), p(exec, tall, h, layout);
    const Vector coarse = Vector::from_host(exec, test::random_vector(41, 17));
    Vector y(exec, n), other(exec, n);
    exec.counters().reset();
    p.axpby(exec, coarse, 1.0, du, 1.0, y);
    a.jacobi(exec, du, du, db, dw, y);
    a.jacobi(exec, du, other, db, dw, y);  // v not within x: read on its own
    const KernelTally spmvs = exec.counters().tally(KernelKind::spmv);
    CHECK(spmvs.calls == 3);
    CHECK(spmvs.bytes == (p.matrix_bytes() + 8.0 * (41 + n) + 8.0 * n) + (a.matrix_bytes() + 16.0 * n + 16.0 * n) +
                             (a.matrix_bytes() + 16.0 * n + 24.0 * n));
    CHECK(exec.counters().total().calls == 3);
  }
  SECTION("Aliasing and sizes refused, naming the kernel") {
    const Stored a(exec, square, h, layout);
    Vector same = Vector::from_host(exec, u);
    CHECK_THROWS_WITH(a.jacobi(exec, same, same, db, dw, same), Catch::Contains("jacobi_step") && Catch::Contains("x and y"));
    CHECK_THROWS_WITH(a.axpby(exec, same, 1.0, du, 1.0, same), Catch::Contains("spmv_axpby"));
    Vector short_u(exec, n - 1), y(exec, n);
    CHECK_THROWS_WITH(a.axpby(exec, du, 1.0, short_u, 1.0, y), Catch::Contains("spmv_axpby") && Catch::Contains("u has"));
    CHECK_THROWS_WITH(a.jacobi(exec, du, du, db, short_u, y), Catch::Contains("jacobi_step") && Catch::Contains("w has"));
  }
}
