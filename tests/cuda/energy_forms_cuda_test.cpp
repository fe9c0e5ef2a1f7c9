// CUDA energy_forms against the CPU reference: the energy, the full forms and the diagonal form on a
// periodic Laplacian with a skew part added (the momentum operator's structure), over the leading rows;
// the energy alone equal bitwise to the full call's on the device, as on the CPU.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "operators/kernels/energy_forms.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

struct Operands {
  DeviceSell d, r;
  std::array<Vector, 3> u, u_old;
  Vector w;
};

Operands operands_on(const Executor& exec, const CsrMatrix& d, const CsrMatrix& r, index_t slice_height) {
  Operands o{DeviceSell(exec, d, slice_height), DeviceSell(exec, r, slice_height), {}, {}, Vector()};
  for (int k = 0; k < 3; ++k) {
    o.u[k] = Vector::from_host(exec, test::random_vector(d.cols, 20 + k));
    o.u_old[k] = Vector::from_host(exec, test::random_vector(d.cols, 30 + k));
  }
  o.w = Vector::from_host(exec, test::random_vector(d.rows, 40));
  return o;
}

// out of energy_forms with D and R as full forms and R as the diagonal one, then the energy alone.
std::vector<double> forms_on(const Executor& exec, const Operands& o, index_t n) {
  const std::array<const Vector*, 3> u{&o.u[0], &o.u[1], &o.u[2]}, old{&o.u_old[0], &o.u_old[1], &o.u_old[2]};
  const Vector* values[] = {&o.d.values(), &o.r.values()};
  Vector out(exec, 4), alone(exec, 1);
  energy_forms(exec, o.d, values, &o.r.values(), u, old, o.w, n, out);
  energy_forms(exec, o.d, {}, nullptr, u, u, o.w, n, alone);
  std::vector<double> all = out.to_host();
  all.push_back(alone.to_host()[0]);
  return all;
}

}  // namespace

TEST_CASE("CUDA energy_forms matches the CPU reference", "[cuda][energy_forms]") {
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const index_t slice_height = GENERATE(as<index_t>{}, 1, 32);
  CAPTURE(slice_height);
  const CsrMatrix d = test::laplacian_3d(47, 41, 53, true);  // 102 131 rows: a partial last block
  CsrMatrix r = d;
  for (index_t i = 0; i < d.rows; ++i)
    for (index_t e = d.row_ptr[i]; e < d.row_ptr[i + 1]; ++e)
      r.val[e] += d.col[e] == i ? 0.3 : (d.col[e] > i ? 0.01 : -0.01);  // skew off the diagonal
  const index_t n = d.rows - 1000;
  const std::vector<double> want = forms_on(cpu, operands_on(cpu, d, r, slice_height), n);
  const std::vector<double> got = forms_on(gpu, operands_on(gpu, d, r, slice_height), n);
  REQUIRE(got.size() == 5);
  for (int k = 0; k < 4; ++k) CHECK(got[k] == Approx(want[k]).epsilon(test::tolerance * 100));
  // R's form by its diagonal differs from its full form by R's skew part over the first n rows only
  // (its couplings to the rows past n do not cancel), not by zero: the CPU's difference is the
  // reference, within the forms' tolerance, so the diagonal form reads D's off-diagonal and R's
  // diagonal alone.
  CHECK(got[2] - got[3] == Approx(want[2] - want[3]).margin(test::tolerance * 100 * std::abs(want[2])));
  CHECK(std::abs(want[2] - want[3]) > 1e-9 * std::abs(want[2]));  // the skew part is seen
  CHECK(got[4] == got[0]);  // the energy alone, bitwise
}

}  // namespace miniapp
