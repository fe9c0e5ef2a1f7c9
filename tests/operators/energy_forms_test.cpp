// energy_forms against SpMVs and dots on the host: the energy and the quadratic forms at the midpoint,
// over the leading rows only, the energy alone bitwise equal to the full call's, and its bytes.
#include <catch2/catch.hpp>

#include <array>

#include "operators/kernels/energy_forms.hpp"
#include "tests/operators/matrix_generators.hpp"
#include "tests/thread_counts.hpp"

using namespace miniapp;

namespace {

struct Fields {
  std::array<std::vector<double>, 3> u, u_old;
  std::array<Vector, 3> du, du_old;
  std::array<const Vector*, 3> now() const { return {&du[0], &du[1], &du[2]}; }
  std::array<const Vector*, 3> old() const { return {&du_old[0], &du_old[1], &du_old[2]}; }
};

Fields random_fields(const Executor& exec, index_t n, unsigned seed) {
  Fields f;
  for (int d = 0; d < 3; ++d) {
    f.u[d] = test::random_vector(n, seed + d);
    f.u_old[d] = test::random_vector(n, seed + 10 + d);
    f.du[d] = Vector::from_host(exec, f.u[d]);
    f.du_old[d] = Vector::from_host(exec, f.u_old[d]);
  }
  return f;
}

// Σ_{i<n} Σ_d ū_d,i (A ū_d)_i with ū = ½(u + u_old).
double reference_form(const CsrMatrix& a, const Fields& f, index_t n) {
  double sum = 0;
  for (int d = 0; d < 3; ++d) {
    std::vector<double> mid(f.u[d].size());
    for (std::size_t i = 0; i < mid.size(); ++i) mid[i] = 0.5 * (f.u[d][i] + f.u_old[d][i]);
    const std::vector<double> y = reference_spmv(a, mid);
    for (index_t i = 0; i < n; ++i) sum += mid[i] * y[i];
  }
  return sum;
}

}  // namespace

TEST_CASE("energy_forms gives the energy and each form at the midpoint over the leading rows", "[energy_forms]") {
  const Executor exec = Executor::cpu();
  const index_t slice_height = GENERATE(1, 8, 32, 128);  // 128: slices taller than the CPU's row chunks
  CAPTURE(slice_height);
  // Rows are the leading columns (owned cells before the halo); two more value sets on one pattern.
  const CsrMatrix a = test::random_csr(203, 250, 7, 1);
  CsrMatrix b = a, c = a;
  const std::vector<double> vb = test::random_vector(a.nnz(), 2), vc = test::random_vector(a.nnz(), 3);
  std::copy(vb.begin(), vb.end(), b.val.begin());
  std::copy(vc.begin(), vc.end(), c.val.begin());
  const DeviceSell da(exec, a, slice_height), db(exec, b, slice_height), dc(exec, c, slice_height);
  const Fields f = random_fields(exec, a.cols, 4);
  const std::vector<double> weights = test::random_vector(a.rows, 5);
  const Vector w = Vector::from_host(exec, weights);
  const index_t n = 190;  // rows past n are not summed
  Vector out(exec, 4);
  const Vector* values[] = {&da.values(), &db.values(), &dc.values()};
  energy_forms(exec, da, values, nullptr, f.now(), f.old(), w, n, out);
  const std::vector<double> got = out.to_host();

  double energy = 0;
  for (index_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) energy += weights[i] * f.u[d][i] * f.u[d][i];
  CHECK(got[0] == Approx(energy).epsilon(1e-13));
  CHECK(got[1] == Approx(reference_form(a, f, n)).epsilon(1e-12));
  CHECK(got[2] == Approx(reference_form(b, f, n)).epsilon(1e-12));
  CHECK(got[3] == Approx(reference_form(c, f, n)).epsilon(1e-12));

  // The energy alone (no value array) is the full call's, bitwise: a row's old energy computed afresh
  // equals the one remembered from the previous row.
  Vector alone(exec, 1);
  energy_forms(exec, da, {}, nullptr, f.now(), f.now(), w, n, alone);
  CHECK(alone.to_host()[0] == got[0]);
}

TEST_CASE("energy_forms gives the same sums on 1 and 3 threads", "[energy_forms]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = test::laplacian_3d(60, 60, 60);  // many chunks of rows
  const DeviceSell da(exec, a, 8);
  const Fields f = random_fields(exec, a.cols, 6);
  const Vector w = Vector::from_host(exec, test::random_vector(a.rows, 7));
  const Vector* values[] = {&da.values()};
  const auto [one, three] = test::on_one_and_three_threads([&] {
    Vector out(exec, 2);
    energy_forms(exec, da, values, nullptr, f.now(), f.old(), w, a.rows, out);
    return out.to_host();
  });
  CHECK(one == three);
}

TEST_CASE("energy_forms' diagonal form: values[0]'s off-diagonal entries with the diagonal's own", "[energy_forms]") {
  const Executor exec = Executor::cpu();
  // A symmetric D and R = D + C with C skew off the diagonal plus any diagonal (the momentum operator).
  const index_t slice_height = GENERATE(1, 8);
  CAPTURE(slice_height);
  const CsrMatrix lap = test::laplacian_3d(5, 4, 3, true);
  CsrMatrix r = lap;
  const std::vector<double> noise = test::random_vector(lap.nnz(), 11);
  for (index_t i = 0; i < lap.rows; ++i)
    for (index_t e = lap.row_ptr[i]; e < lap.row_ptr[i + 1]; ++e) {
      const index_t j = lap.col[e];
      // C_ij = (j − i) · s: skew whatever the order; the diagonal gets a random shift.
      r.val[e] += i == j ? noise[e] : 0.01 * static_cast<double>(j - i);
    }
  const DeviceSell dd(exec, lap, slice_height), dr(exec, r, slice_height);
  const Fields f = random_fields(exec, lap.cols, 12);
  const Vector w = Vector::from_host(exec, std::vector<double>(lap.rows, 1.0));
  Vector out(exec, 3);
  const Vector* values[] = {&dd.values()};
  energy_forms(exec, dd, values, &dr.values(), f.now(), f.old(), w, lap.rows, out);
  const std::vector<double> got = out.to_host();
  CHECK(got[1] == Approx(reference_form(lap, f, lap.rows)).epsilon(1e-12));
  CHECK(got[2] == Approx(reference_form(r, f, lap.rows)).epsilon(1e-12));
  CHECK(got[2] != Approx(got[1]).epsilon(1e-3));  // the diagonal shift shows

  Vector no_room(exec, 2);
  CHECK_THROWS_WITH(energy_forms(exec, dd, values, &dr.values(), f.now(), f.old(), w, lap.rows, no_room),
                    Catch::Contains("out has 2 entries, expected 3"));
  CHECK_THROWS_WITH(energy_forms(exec, dd, {}, &dr.values(), f.now(), f.old(), w, lap.rows, no_room),
                    Catch::Contains("a diagonal without values[0]"));
}

TEST_CASE("energy_forms counts the pattern and each value array once", "[energy_forms]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = test::laplacian_3d(6, 5, 4);
  const DeviceSell da(exec, a, 8);
  const Fields f = random_fields(exec, a.cols, 7);
  const Vector w = Vector::from_host(exec, std::vector<double>(a.rows, 1.0));
  Vector out(exec, 3);
  const Vector* values[] = {&da.values(), &da.values()};
  exec.counters().reset();
  energy_forms(exec, da, values, nullptr, f.now(), f.old(), w, a.rows, out);
  const double stored = da.stored_entries(), slices = da.slice_count();
  const KernelTally& t = exec.counters().tally(KernelKind::spmv);
  CHECK(t.calls == 1);
  CHECK(t.bytes == 4 * stored + 4 * (slices + 1) + 2 * 8 * stored + 48.0 * a.cols + 8.0 * a.rows);
  exec.counters().reset();
  Vector with_diagonal(exec, 4);
  energy_forms(exec, da, values, &da.values(), f.now(), f.old(), w, a.rows, with_diagonal);
  CHECK(t.bytes == 4 * stored + 4 * (slices + 1) + 2 * 8 * stored + 8.0 * a.rows + 48.0 * a.cols + 8.0 * a.rows);
  CHECK(exec.counters().host_reads() == 0);  // the sums stay on the executor
}

TEST_CASE("energy_forms refuses mismatched arguments", "[energy_forms]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = test::random_csr(20, 30, 4, 8);
  const DeviceSell da(exec, a, 8);
  const Fields f = random_fields(exec, a.cols, 9);
  const Vector w(exec, a.rows);
  Vector out(exec, 2);
  const Vector wrong(exec, 5);
  const Vector* bad_values[] = {&wrong};
  CHECK_THROWS_WITH(energy_forms(exec, da, bad_values, nullptr, f.now(), f.old(), w, 20, out),
                    Catch::Contains("a value array has 5 entries"));
  const Vector* values[] = {&da.values()};
  CHECK_THROWS_WITH(energy_forms(exec, da, values, nullptr, f.now(), f.old(), w, 21, out),
                    Catch::Contains("21 rows summed of a matrix with 20"));
  Vector short_out(exec, 1);
  CHECK_THROWS_WITH(energy_forms(exec, da, values, nullptr, f.now(), f.old(), w, 20, short_out),
                    Catch::Contains("out has 1 entries, expected 2"));
}
