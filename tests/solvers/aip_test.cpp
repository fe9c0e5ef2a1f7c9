#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <vector>

#include "operators/kernels/cg_kernels.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "solvers/aip.hpp"
#include "solvers/aip_factor.hpp"

using namespace miniapp;

namespace {

// −L of the 5-point (nz = 1) or 7-point Laplacian on an nx × ny × nz grid with unit weights.
// Dirichlet: a missing neighbour still adds 1 to the diagonal (zero ghost value), so A is SPD.
// Periodic: neighbours wrap around, A is singular with the constants as null space.
CsrMatrix grid_laplacian(int nx, int ny, int nz, bool periodic) {
  const int n[3] = {nx, ny, nz};
  const int dims = nz == 1 ? 2 : 3;
  auto id = [&](const int c[3]) { return static_cast<index_t>(c[0] + nx * (c[1] + ny * c[2])); };
  std::vector<Triplet> t;
  int c[3];
  for (c[2] = 0; c[2] < nz; ++c[2])
    for (c[1] = 0; c[1] < ny; ++c[1])
      for (c[0] = 0; c[0] < nx; ++c[0])
        for (int d = 0; d < dims; ++d)
          for (int step : {-1, 1}) {
            int e[3] = {c[0], c[1], c[2]};
            e[d] += step;
            const bool inside = e[d] >= 0 && e[d] < n[d];
            t.push_back({id(c), id(c), 1.0});
            if (!inside && !periodic) continue;
            e[d] = (e[d] + n[d]) % n[d];
            t.push_back({id(c), id(e), -1.0});
          }
  const index_t rows = static_cast<index_t>(nx * ny * nz);
  return csr_from_triplets(rows, rows, std::move(t));
}

using Dense = std::vector<std::vector<double>>;

Dense to_dense(const CsrMatrix& a) {
  Dense d(a.rows, std::vector<double>(a.cols, 0.0));
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) d[i][a.col[p]] = a.val[p];
  return d;
}

Dense dense_product(const Dense& a, const Dense& b) {
  Dense c(a.size(), std::vector<double>(b[0].size(), 0.0));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < b.size(); ++k)
      if (a[i][k] != 0.0)
        for (std::size_t j = 0; j < b[0].size(); ++j) c[i][j] += a[i][k] * b[k][j];
  return c;
}

// Lower triangle of the pattern of A^k, from dense products of |A| + I (independent of aip_pattern).
std::vector<std::vector<bool>> reference_pattern(const CsrMatrix& a, int level) {
  Dense b = to_dense(a);
  for (std::size_t i = 0; i < b.size(); ++i) {
    for (double& v : b[i]) v = std::abs(v);
    b[i][i] += 1.0;
  }
  Dense power = b;
  for (int k = 1; k < level; ++k) power = dense_product(power, b);
  std::vector<std::vector<bool>> s(b.size(), std::vector<bool>(b.size(), false));
  for (std::size_t i = 0; i < b.size(); ++i)
    for (std::size_t j = 0; j <= i; ++j) s[i][j] = power[i][j] != 0.0;
  return s;
}

bool has_entry(const CsrMatrix& m, index_t i, index_t j) {
  for (index_t p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p)
    if (m.col[p] == j) return true;
  return false;
}

// Chow's defining property and the shape of G: lower triangular, positive diagonal,
// (G A)_ij = 0 for j ∈ S_i \ {i}, (G A Gᵀ)_ii = 1.
void check_factor(const CsrMatrix& a, int level) {
  const CsrMatrix g = aip_factor(a, level);
  const Dense ga = dense_product(to_dense(g), to_dense(a));
  for (index_t i = 0; i < g.rows; ++i) {
    REQUIRE(g.row_length(i) > 0);
    const index_t last = g.row_ptr[i + 1] - 1;
    REQUIRE(g.col[last] == i);  // columns sorted and ≤ i: diagonal is the last entry
    CHECK(g.val[last] > 0.0);
    double gagt = 0.0;
    for (index_t p = g.row_ptr[i]; p <= last; ++p) {
      const index_t j = g.col[p];
      if (j != i) CHECK(std::abs(ga[i][j]) < 1e-12);
      gagt += ga[i][j] * g.val[p];
    }
    CHECK(std::abs(gagt - 1.0) < 1e-12);
  }
}

// Host PCG iterations to reach ‖r‖ ≤ 1e-8 ‖b‖; `precondition` maps r to z = M r.
int pcg_iterations(const CsrMatrix& a, const std::vector<double>& b,
                   const std::function<std::vector<double>(const std::vector<double>&)>& precondition) {
  auto dot = [](const std::vector<double>& u, const std::vector<double>& v) {
    double s = 0.0;
    for (std::size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
    return s;
  };
  std::vector<double> x(b.size(), 0.0), r = b, z = precondition(r), p = z;
  double rz = dot(r, z);
  const double stop = 1e-16 * dot(b, b);
  for (int it = 1; it <= 1000; ++it) {
    const std::vector<double> q = reference_spmv(a, p);
    const double alpha = rz / dot(p, q);
    for (std::size_t i = 0; i < b.size(); ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    if (dot(r, r) <= stop) return it;
    z = precondition(r);
    const double rz_next = dot(r, z);
    for (std::size_t i = 0; i < b.size(); ++i) p[i] = z[i] + rz_next / rz * p[i];
    rz = rz_next;
  }
  return 1000;
}

}  // namespace

TEST_CASE("aip pattern is the lower triangle of the pattern of A^k", "[aip]") {
  const CsrMatrix a = grid_laplacian(4, 3, 3, false);
  for (int level = 1; level <= 3; ++level) {
    const CsrMatrix s = aip_pattern(a, level);
    const auto expected = reference_pattern(a, level);
    index_t count = 0;
    for (index_t i = 0; i < a.rows; ++i)
      for (index_t j = 0; j < a.rows; ++j) count += expected[i][j];
    CHECK(s.nnz() == count);
    for (index_t i = 0; i < s.rows; ++i)
      for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1]; ++p) CHECK(expected[i][s.col[p]]);
  }
}

TEST_CASE("aip patterns of higher levels contain level 1", "[aip]") {
  const CsrMatrix a = grid_laplacian(5, 4, 3, true);
  const CsrMatrix s1 = aip_pattern(a, 1);
  for (int level = 2; level <= 3; ++level) {
    const CsrMatrix s = aip_pattern(a, level);
    CHECK(s.nnz() > s1.nnz());
    for (index_t i = 0; i < s1.rows; ++i)
      for (index_t p = s1.row_ptr[i]; p < s1.row_ptr[i + 1]; ++p) CHECK(has_entry(s, i, s1.col[p]));
  }
}

TEST_CASE("aip factor satisfies Chow's conditions on grid Laplacians", "[aip]") {
  const bool periodic = GENERATE(false, true);
  const int level = GENERATE(1, 2, 3);
  INFO("periodic " << periodic << ", level " << level);
  SECTION("2D") { check_factor(grid_laplacian(6, 5, 1, periodic), level); }
  SECTION("3D") { check_factor(grid_laplacian(5, 4, 4, periodic), level); }
}

TEST_CASE("aip factor of a diagonal matrix is diag(1/sqrt(a_ii))", "[aip]") {
  const std::vector<double> d = {4.0, 0.25, 9.0, 2.0};
  std::vector<Triplet> t;
  for (index_t i = 0; i < 4; ++i) t.push_back({i, i, d[i]});
  const CsrMatrix a = csr_from_triplets(4, 4, t);
  for (int level = 1; level <= 3; ++level) {
    const CsrMatrix g = aip_factor(a, level);
    REQUIRE(g.nnz() == 4);
    for (index_t i = 0; i < 4; ++i) {
      CHECK(g.col[i] == i);
      CHECK(g.val[i] == Approx(1.0 / std::sqrt(d[i])).epsilon(1e-15));
    }
  }
}

TEST_CASE("aip rejects bad levels, non-square and non-SPD matrices", "[aip]") {
  const CsrMatrix a = grid_laplacian(3, 3, 1, false);
  CHECK_THROWS_AS(aip_factor(a, 0), Error);
  CHECK_THROWS_AS(aip_pattern(a, 4), Error);
  CHECK_THROWS_AS(aip_factor(csr_from_triplets(2, 3, {{0, 0, 1.0}, {1, 1, 1.0}}), 1), Error);
  SECTION("indefinite") {
    const CsrMatrix b = csr_from_triplets(2, 2, {{0, 0, 1.0}, {0, 1, 2.0}, {1, 0, 2.0}, {1, 1, 1.0}});
    CHECK_THROWS_WITH(aip_factor(b, 1), Catch::Contains("row 1") && Catch::Contains("level 1"));
  }
  SECTION("one-cell periodic mesh: empty row, A = [0]") {
    CHECK_THROWS_WITH(aip_factor(CsrMatrix{1, 1, {0, 0}, {}, {}}, 1), Catch::Contains("row 0"));
  }
  SECTION("singular pattern covering a whole periodic mesh") {
    // On a periodic 3³ grid every cell is within three steps of every other, so at level 3 the last
    // row's pattern is the whole (singular) matrix; level 1 still works.
    const CsrMatrix p = grid_laplacian(3, 3, 3, true);
    CHECK_NOTHROW(aip_factor(p, 1));
    CHECK_THROWS_WITH(aip_factor(p, 3), Catch::Contains("row 26") && Catch::Contains("level 3"));
  }
}

TEST_CASE("aip reduces PCG iterations against Jacobi on a 3D Laplacian", "[aip]") {
  const CsrMatrix a = grid_laplacian(16, 16, 16, false);
  std::vector<double> b(a.rows);
  for (index_t i = 0; i < a.rows; ++i) b[i] = std::sin(0.37 * i) + 0.1;
  const int jacobi = pcg_iterations(a, b, [&](const std::vector<double>& r) {
    std::vector<double> z(r.size());
    for (index_t i = 0; i < a.rows; ++i) z[i] = r[i] / 6.0;
    return z;
  });
  std::vector<int> aip;
  for (int level = 1; level <= 3; ++level) {
    const CsrMatrix g = aip_factor(a, level), gt = transpose(g);
    aip.push_back(pcg_iterations(a, b, [&](const auto& r) { return reference_spmv(gt, reference_spmv(g, r)); }));
  }
  INFO("Jacobi " << jacobi << ", AIP levels 1-3: " << aip[0] << " " << aip[1] << " " << aip[2]);
  CHECK(aip[0] < jacobi);
  CHECK(aip[1] < aip[0]);
  CHECK(aip[2] < aip[1]);
}

// G with its values rounded to float, as the executor stores it.
CsrMatrix float_factor(const CsrMatrix& a, int level) {
  CsrMatrix g = aip_factor(a, level);
  for (double& v : g.val) v = static_cast<float>(v);
  return g;
}

// Gᵀ G with its values rounded to float once, as the product form stores it.
CsrMatrix float_product(const CsrMatrix& a, int level) {
  const CsrMatrix g = aip_factor(a, level);
  CsrMatrix m = multiply(transpose(g), g);
  for (double& v : m.val) v = static_cast<float>(v);
  return m;
}

TEST_CASE("Aip::apply computes G^T G r through the executor, in float, in either form", "[aip]") {
  // 210 rows: not a multiple of either slice height; 8 takes the AVX2 path where the CPU has it, 5
  // the portable one.
  const CsrMatrix a = grid_laplacian(7, 6, 5, true);
  const Executor exec = Executor::cpu();
  const int level = GENERATE(1, 2);
  const index_t slice_height = GENERATE(as<index_t>{}, 8, 5);
  const AipForm form = GENERATE(AipForm::two_pass, AipForm::product);
  INFO("level " << level << ", slice height " << slice_height << ", product " << (form == AipForm::product));
  const Aip m(exec, a, level, slice_height, form);
  REQUIRE(m.factor().form() == form);
  std::vector<double> r(a.rows);
  for (index_t i = 0; i < a.rows; ++i) r[i] = std::cos(1.3 * i);
  const Vector r_device = Vector::from_host(exec, r);
  Vector z(exec, a.rows);
  m.apply(r_device, z);
  const CsrMatrix g = float_factor(a, level);
  const std::vector<double> expected = form == AipForm::product
                                           ? reference_spmv(float_product(a, level), r)
                                           : reference_spmv(transpose(g), reference_spmv(g, r));
  const std::vector<double> got = z.to_host();
  for (index_t i = 0; i < a.rows; ++i) CHECK(got[i] == Approx(expected[i]).epsilon(1e-13).margin(1e-14));
}

TEST_CASE("Aip::apply_with_rho gives the apply and the CG scalars of cg_rho", "[aip]") {
  const CsrMatrix a = grid_laplacian(9, 8, 7, false);
  const Executor exec = Executor::cpu();
  const Aip m(exec, a, 1, 8, GENERATE(AipForm::two_pass, AipForm::product));
  std::vector<double> r(a.rows);
  for (index_t i = 0; i < a.rows; ++i) r[i] = std::sin(0.7 * i) + 0.2;
  const Vector r_device = Vector::from_host(exec, r);
  Vector z(exec, a.rows), z_plain(exec, a.rows);
  CgScalars s(exec);
  s.start(2.0, 0.5, 1.0, 1e-8);  // ρ_old = 2
  REQUIRE(m.apply_with_rho(r_device, z, s));
  m.apply(r_device, z_plain);
  const std::vector<double> got = z.to_host(), plain = z_plain.to_host();
  double rho = 0.0;
  for (index_t i = 0; i < a.rows; ++i) rho += r[i] * got[i];
  CHECK(got == plain);  // the same passes, bitwise
  const std::vector<double> slots = s.values();
  CHECK(slots[cg::rho] == Approx(rho).epsilon(1e-13));
  CHECK(slots[cg::beta] == Approx(rho / 2.0).epsilon(1e-13));
  SECTION("a stopped solve leaves z and the scalars alone") {
    // Only CG kernels set the status: a residual update with r = 0 passes the residual test.
    Vector zeros_p(exec, a.rows), zeros_q(exec, a.rows), x(exec, a.rows), zero_r(exec, a.rows);
    for (Vector* v : {&zeros_p, &zeros_q, &x, &zero_r}) v->copy_from_host(std::vector<double>(a.rows, 0.0));
    cg_update(exec, zeros_p, zeros_q, x, zero_r, s);
    REQUIRE(s.read().status == cg::Status::residual_test);
    const std::vector<double> slots_before = s.values();
    const std::vector<double> filler(a.rows, -1.0);
    Vector untouched = Vector::from_host(exec, filler);
    REQUIRE(m.apply_with_rho(r_device, untouched, s));
    CHECK(s.values() == slots_before);
    CHECK(untouched.to_host() == filler);
  }
}

TEST_CASE("Aip::apply_advancing is cg_update then apply_with_rho", "[aip]") {
  const CsrMatrix a = grid_laplacian(19, 18, 17, false);  // 5814 rows: several blocks of the sums
  const Executor exec = Executor::cpu();
  const AipForm form = GENERATE(AipForm::two_pass, AipForm::product);
  CAPTURE(form == AipForm::product);
  const Aip m(exec, a, 1, 8, form);
  REQUIRE(m.fuses_update());
  const DeviceSell da(exec, to_sell(a, 8));
  const auto vector = [&](double phase) {
    std::vector<double> v(a.rows);
    for (index_t i = 0; i < a.rows; ++i) v[i] = std::sin(0.7 * i + phase) + 0.2;
    return Vector::from_host(exec, v);
  };
  struct Run {
    Vector p, q, x, r, r_new, z;
    CgScalars s;
  };
  const auto make = [&](double tolerance) {
    Run run{vector(0), Vector(exec, a.rows), vector(1), vector(2), vector(3), Vector(exec, a.rows), CgScalars(exec)};
    run.s.start(2.0, 0.5, 4.0, tolerance);
    cg_spmv_dot(exec, da, run.p, run.q, run.s);  // q = A p and α ≠ 0
    return run;
  };
  for (const double tolerance : {1e-8, 1e6}) {  // running on, and stopping at this iteration
    CAPTURE(tolerance);
    Run fused = make(tolerance), apart = make(tolerance);
    const auto r_before = fused.r.to_host();
    m.apply_advancing(fused.p, fused.q, fused.x, fused.r, fused.r_new, fused.z, fused.s);
    cg_update(exec, apart.p, apart.q, apart.x, apart.r, apart.s);
    REQUIRE(m.apply_with_rho(apart.r, apart.z, apart.s));
    CHECK(fused.x.to_host() == apart.x.to_host());
    CHECK(fused.r.to_host() == r_before);  // the old residual is left as it was
    CHECK(fused.r_new.to_host() == apart.r.to_host());
    if (tolerance < 1) CHECK(fused.z.to_host() == apart.z.to_host());  // once stopped, apart forms no z
    const std::vector<double> got = fused.s.values(), want = apart.s.values();
    for (const int slot : {cg::rho, cg::beta, cg::iterations, cg::status}) {
      CAPTURE(slot);
      CHECK(got[slot] == want[slot]);
    }
    // γ = r·r summed over the apply's blocks instead of the update's chunks.
    CHECK(got[cg::residual_sq] == Approx(want[cg::residual_sq]).epsilon(1e-13));
    CHECK(got[cg::relative_residual] == Approx(want[cg::relative_residual]).epsilon(1e-13));
    CHECK(fused.s.read().status == (tolerance > 1 ? cg::Status::residual_test : cg::Status::running));
    if (tolerance > 1) {  // stopped: a later call leaves every vector and scalar alone
      const auto x = fused.x.to_host(), r_new = fused.r_new.to_host(), z = fused.z.to_host();
      m.apply_advancing(fused.p, fused.q, fused.x, fused.r, fused.r_new, fused.z, fused.s);
      CHECK(fused.x.to_host() == x);
      CHECK(fused.r_new.to_host() == r_new);
      CHECK(fused.z.to_host() == z);
      CHECK(fused.s.values() == got);
    }
  }
  REQUIRE(m.residual_in_place() == (form == AipForm::two_pass));
  if (m.residual_in_place()) {  // two passes: r_new = r gives the same as apart
    Run in_place = make(1e-8), apart = make(1e-8);
    m.apply_advancing(in_place.p, in_place.q, in_place.x, in_place.r, in_place.r, in_place.z, in_place.s);
    cg_update(exec, apart.p, apart.q, apart.x, apart.r, apart.s);
    REQUIRE(m.apply_with_rho(apart.r, apart.z, apart.s));
    CHECK(in_place.r.to_host() == apart.r.to_host());
    CHECK(in_place.z.to_host() == apart.z.to_host());
  }
}

TEST_CASE("The fused AIP apply books its time where its bytes are counted", "[aip]") {
  // Kinds whose bytes came without time reported impossible bandwidths (bytes over almost nothing).
  const CsrMatrix a = grid_laplacian(19, 18, 17, false);
  const Executor exec = Executor::cpu();
  exec.set_profiling(true);
  const AipForm form = GENERATE(AipForm::two_pass, AipForm::product);
  const Aip m(exec, a, 1, 8, form);
  const DeviceSell da(exec, to_sell(a, 8));
  Vector p = Vector::from_host(exec, std::vector<double>(a.rows, 1.0)), q(exec, a.rows), x(exec, a.rows),
         r = Vector::from_host(exec, std::vector<double>(a.rows, 0.5)), r_new(exec, a.rows), z(exec, a.rows);
  CgScalars s(exec);
  s.start(2.0, 0.5, 4.0, 1e-8);
  cg_spmv_dot(exec, da, p, q, s);
  exec.counters().reset();
  m.apply_advancing(p, q, x, r, r_new, z, s);
  const KernelTally& spmv = exec.counters().tally(KernelKind::spmv);
  REQUIRE(spmv.seconds > 0);
  const double bandwidth = spmv.bytes / spmv.seconds;
  for (const KernelKind kind : {KernelKind::axpy, KernelKind::dot}) {
    const KernelTally& t = exec.counters().tally(kind);
    CAPTURE(name(kind));
    if (t.bytes == 0) continue;
    REQUIRE(t.seconds > 0);
    CHECK(t.bytes / t.seconds == Approx(bandwidth).epsilon(1e-9));
  }
}

TEST_CASE("The AIP apply with the update joined checks its vectors", "[aip]") {
  const CsrMatrix a = grid_laplacian(5, 4, 3, false);
  const Executor exec = Executor::cpu();
  const Aip m(exec, a, 1, 8);
  Vector v(exec, a.rows), w(exec, a.rows), short_vector(exec, a.rows - 1);
  CgScalars s(exec);
  Vector u(exec, a.rows);
  CHECK_THROWS_WITH(aip_apply_advancing(exec, m.factor(), v, short_vector, v, w, u, short_vector, s),
                    Catch::Contains("aip_apply_advancing") && Catch::Contains("q"));
  CHECK_THROWS_WITH(m.apply_advancing(v, v, w, w, u, v, s), Catch::Contains("x and r"));
  CHECK_THROWS_WITH(m.apply_advancing(v, v, w, u, v, v, s), Catch::Contains("r_new and z"));
  const Aip product(exec, a, 1, 8, AipForm::product);
  CHECK_THROWS_WITH(product.apply_advancing(v, v, w, u, u, v, s), Catch::Contains("r and r_new"));
}

TEST_CASE("The AIP factor takes the form that moves fewer bytes per apply", "[aip]") {
  const Executor exec = Executor::cpu();
  const index_t h = 8;
  // What each form moves besides r and z: the matrices (8 bytes per stored entry, 4 per slice
  // pointer), and for two passes y written and read.
  const auto product_bytes = [&](const CsrMatrix& a) {
    return DeviceAipFactor(exec, aip_factor(a, 1), h, AipForm::product).apply_bytes() - 16.0 * a.rows;
  };
  const auto two_pass_bytes = [&](const CsrMatrix& a) {
    return DeviceAipFactor(exec, aip_factor(a, 1), h, AipForm::two_pass).apply_bytes() - 16.0 * a.rows;
  };
  SECTION("7-point stencil: Gᵀ G has 13 entries a row against 4 + 4, two passes") {
    const CsrMatrix a = grid_laplacian(16, 16, 16, true);
    REQUIRE(two_pass_bytes(a) < product_bytes(a));
    CHECK(DeviceAipFactor(exec, aip_factor(a, 1), h).form() == AipForm::two_pass);
  }
  SECTION("5-point stencil: 7 entries against 3 + 3 and y, the product") {
    const CsrMatrix a = grid_laplacian(40, 40, 1, true);
    REQUIRE(product_bytes(a) < two_pass_bytes(a));
    CHECK(DeviceAipFactor(exec, aip_factor(a, 1), h).form() == AipForm::product);
  }
  SECTION("level 2: the product's rows would gather far more than G's entries, two passes") {
    const CsrMatrix a = grid_laplacian(12, 12, 12, true);
    CHECK(DeviceAipFactor(exec, aip_factor(a, 2), h).form() == AipForm::two_pass);
  }
}

TEST_CASE("The AIP product form stores Gᵀ G symmetric bitwise, and the memory estimate counts its form", "[aip]") {
  const Executor exec = Executor::cpu();
  const index_t h = 8;
  const CsrMatrix a = grid_laplacian(20, 18, 1, false);
  const CsrMatrix m = float_product(a, 1);
  const Dense dense = to_dense(m);
  for (index_t i = 0; i < m.rows; ++i)
    for (index_t j = 0; j < i; ++j) REQUIRE(dense[i][j] == dense[j][i]);
  // Executor bytes of one sELL matrix (host memory on the CPU): slice pointers, an index and a float
  // per stored entry.
  const auto stored_bytes = [](const SellFloatView& s) {
    return 4 * static_cast<std::size_t>(s.slice_count + 1) + 8 * static_cast<std::size_t>(s.slice_ptr[s.slice_count]);
  };
  for (const CsrMatrix& b : {a, grid_laplacian(9, 8, 7, false)}) {  // the product, two passes
    const DeviceAipFactor g(exec, aip_factor(b, 1), h);
    const AipFactorView v = g.view();
    CAPTURE(v.passes);
    const std::size_t allocated = v.passes == 2 ? stored_bytes(v.first) + stored_bytes(v.second) + 8 * b.rows
                                                : stored_bytes(v.first);
    CHECK(DeviceAipFactor::device_bytes(aip_pattern(b, 1), h) == allocated);
  }
}
