// The batched solve's steps that run in executor memory instead of on the host: the systems' start
// and the mean removal of singular systems.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "solvers/fft/batched_cg_scalars.hpp"
#include "solvers/fft/batched_kernels.hpp"
#include "tests/fft/fft_test_support.hpp"

using namespace miniapp;
namespace bc = fft::batched_cg;

TEST_CASE("batched_start sets every slot and stops the systems already within the tolerance", "[fft]") {
  const Executor exec = Executor::cpu();
  constexpr index_t S = 3;
  // b·b, r·z, r·r per system: converged (5e-11 ≤ 1e-8), a zero right-hand side, and one to iterate.
  const std::vector<double> sums{4, 0, 9, /**/ 1, 2, 3, /**/ 1e-20, 5, 9};
  Vector state = Vector::from_host(exec, std::vector<double>(bc::slot_count * S, std::nan("")));
  fft::batched_start(exec, state, Vector::from_host(exec, sums), 1e-8, S);
  const std::vector<double> got = state.to_host();
  const auto at = [&](bc::Slot k, index_t s) { return bc::slot(got.data(), S, k, s); };
  const double b_norm[] = {2, 0, 3}, residual[] = {std::sqrt(1e-20) / 2, 0, 1}, rho[] = {1, 2, 3};
  const cg::Status status[] = {cg::Status::residual_test, cg::Status::residual_test, cg::Status::running};
  for (index_t s = 0; s < S; ++s) {
    CHECK(at(bc::b_norm, s) == b_norm[s]);
    CHECK(at(bc::relative_residual, s) == residual[s]);
    CHECK(at(bc::rho, s) == rho[s]);
    CHECK(at(bc::tolerance, s) == 1e-8);
    CHECK(at(bc::alpha, s) == 0);
    CHECK(at(bc::beta, s) == 0);
    CHECK(at(bc::iterations, s) == 0);
    CHECK(at(bc::status, s) == static_cast<double>(status[s]));
  }
  CHECK(bc::running(got.data(), S, 2));
  CHECK_FALSE(bc::running(got.data(), S, 0));
  CHECK_THROWS_WITH(fft::batched_start(exec, state, Vector::from_host(exec, sums), 1e-8, S + 1),
                    Catch::Contains("batched_start") && Catch::Contains("state"));
}

TEST_CASE("batched_subtract_mean removes each column's mean inside the range and leaves the others", "[fft]") {
  const Executor exec = Executor::cpu();
  constexpr index_t S = 5, n = 40;
  const std::vector<double> v0 = test::random_vector(static_cast<std::size_t>(n * S), 11);
  const fft::SystemRange range{1, 4};
  std::vector<double> sums(S, std::nan(""));  // NaN outside the range: it must not be read
  for (index_t s = range.begin; s < range.end; ++s) {
    sums[s] = 0;
    for (index_t c = 0; c < n; ++c) sums[s] += v0[c * S + s];
  }
  Vector v = Vector::from_host(exec, v0);
  fft::batched_subtract_mean(exec, Vector::from_host(exec, sums), n, v, S, range);
  const std::vector<double> got = v.to_host();
  for (index_t s = 0; s < S; ++s) {
    double sum = 0;
    for (index_t c = 0; c < n; ++c) {
      const double want = s >= range.begin && s < range.end ? v0[c * S + s] - sums[s] / n : v0[c * S + s];
      CHECK(got[c * S + s] == want);
      sum += got[c * S + s];
    }
    if (s >= range.begin && s < range.end) CHECK(std::abs(sum) < 1e-13);
  }
  CHECK_THROWS_WITH(fft::batched_subtract_mean(exec, Vector::from_host(exec, sums), 0.0, v, S, range),
                    Catch::Contains("batched_subtract_mean") && Catch::Contains("row count"));
}
