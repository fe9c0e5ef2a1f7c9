// The unified frequency kernels and solver: batched SpMV vs one SpMV per frequency, per-system
// stopping, AIP blocks, and the greedy preconditioner choice.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <tuple>

#include "solvers/fft/batched_pcg.hpp"
#include "tests/fft/fft_test_support.hpp"
#include "tests/fft/tile_span_check.hpp"

using namespace miniapp;
using test::column;
using test::norm;

namespace {

constexpr double tolerance = 1e-10;

}  // namespace

TEST_CASE("The unified batched SpMV equals one SpMV per frequency system", "[fft]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(9, 7);
  const std::vector<double> shifts{0, 0, 0.3, 0.3, 1.2, 1.2, 2.5, 2.5, 4, 4};
  const std::size_t S = shifts.size(), n = static_cast<std::size_t>(op.in_plane.rows);
  const fft::ShiftedSystems systems(exec, op.in_plane, op.z_coupling, shifts);
  const auto x = test::random_vector(n * S, 4);
  const auto range = GENERATE(as<fft::SystemRange>{}, fft::SystemRange{0, 10}, fft::SystemRange{3, 8});
  std::vector<double> y_host(n * S, std::numeric_limits<double>::quiet_NaN());
  Vector y = Vector::from_host(exec, y_host);
  fft::batched_shifted_spmv(exec, systems.view(), Vector::from_host(exec, x), y, static_cast<index_t>(S), range);
  y_host = y.to_host();
  for (std::size_t s = 0; s < S; ++s) {
    const auto got = column(y_host, S, s);
    if (static_cast<index_t>(s) < range.begin || static_cast<index_t>(s) >= range.end) {
      for (double v : got) CHECK(std::isnan(v));  // outside the range: untouched
      continue;
    }
    const auto want = reference_spmv(fft::shifted_matrix(op.in_plane, op.z_coupling, shifts[s]), column(x, S, s));
    CHECK(test::distance(got, want) <= 1e-14 * norm(want));
  }
}

TEST_CASE("The SpMV with pᵀq over two spans of tiles writes what one call writes, bit for bit", "[fft]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(23, 29);
  const std::vector<double> shifts{0, 0.3, 0.3, 1.2, 2.5, 2.5};
  const index_t S = static_cast<index_t>(shifts.size()), n = op.in_plane.rows;
  const index_t tiles = fft::row_tiles(exec.backend(), n).count;
  REQUIRE(tiles > 2);
  const index_t split = GENERATE_COPY(index_t{0}, index_t{1}, tiles / 2, tiles);
  CAPTURE(split);
  const KernelCounters before = exec.counters();
  test::check_two_tile_spans(exec, op, shifts, n - 100, {1, 5}, split);
  // One call and the two spans, counted as two calls' bytes between them (a call over no tile is not made).
  const KernelTally spmv = exec.counters().since(before).tally(KernelKind::spmv);
  CHECK(spmv.calls == (split == 0 || split == tiles ? 2 : 3));
  const fft::ShiftedSystems m(exec, op.in_plane, op.z_coupling, shifts);
  Vector p(exec, n * S), q(exec, n * S), partials(exec, fft::batched_partials_size(exec.backend(), n, S));
  const KernelCounters one_call = exec.counters();
  fft::batched_shifted_spmv_dot(exec, m.view(), p, q, S, {1, 5}, n - 100, partials);
  CHECK(spmv.bytes == Approx(2 * exec.counters().since(one_call).tally(KernelKind::spmv).bytes));
  CHECK_THROWS_AS(fft::batched_shifted_spmv_dot(exec, m.view(), p, q, S, {1, 5}, n - 100, partials, {0, tiles + 1}),
                  Error);
}

TEST_CASE("The fused CG kernels equal their steps done one by one, over the owned rows", "[fft]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(23, 29);  // 667 rows: 21 tiles of 32
  const std::vector<double> shifts{0, 0, 0.3, 0.3, 1.2, 1.2, 2.5, 2.5};
  const index_t S = static_cast<index_t>(shifts.size()), n = op.in_plane.rows, owned = n - 100;
  const std::size_t size = static_cast<std::size_t>(n) * S;
  const fft::ShiftedSystems m(exec, op.in_plane, op.z_coupling, shifts);
  const fft::SystemRange range{1, 7};
  const index_t jacobi_begin = 4;
  const auto p0 = test::random_vector(size, 11), q0 = test::random_vector(size, 12), x0 = test::random_vector(size, 13),
             r0 = test::random_vector(size, 14), alpha = test::random_vector(static_cast<std::size_t>(S), 15);
  const auto in_range = [&](std::size_t s) { return static_cast<index_t>(s) >= range.begin && static_cast<index_t>(s) < range.end; };
  // The SpMV and pᵀq.
  Vector p = Vector::from_host(exec, p0), q(exec, static_cast<index_t>(size)), partials(exec, fft::batched_partials_size(exec.backend(), n, S));
  fft::batched_shifted_spmv_dot(exec, m.view(), p, q, S, range, owned, partials);
  Vector sums = Vector::from_host(exec, std::vector<double>(static_cast<std::size_t>(S), -1.0));
  fft::batched_column_sums(exec, partials, n, S, range, sums);
  const auto q_host = q.to_host(), pq = sums.to_host();
  for (std::size_t s = 0; s < static_cast<std::size_t>(S); ++s) {
    if (!in_range(s)) {
      CHECK(pq[s] == -1.0);  // outside the range: untouched
      continue;
    }
    const auto want = reference_spmv(fft::shifted_matrix(op.in_plane, op.z_coupling, shifts[s]), column(p0, S, s));
    CHECK(test::distance(column(q_host, S, s), want) <= 1e-14 * norm(want));
    double dot = 0;
    for (index_t c = 0; c < owned; ++c) dot += p0[c * S + s] * want[c];
    CHECK(pq[s] == Approx(dot).epsilon(1e-13));
  }
  // The update with Jacobi above jacobi_begin, r·z and r·r.
  Vector qv = Vector::from_host(exec, q0), x = Vector::from_host(exec, x0), r = Vector::from_host(exec, r0);
  Vector a = Vector::from_host(exec, alpha);
  Vector rz(exec, fft::batched_partials_size(exec.backend(), n, S)), rr(exec, fft::batched_partials_size(exec.backend(), n, S));
  fft::batched_cg_update_jacobi(exec, m.view(), a, Vector::from_host(exec, p0), qv, x, r, S, range, jacobi_begin,
                                owned, rz, rr);
  Vector rz_sums(exec, S), rr_sums(exec, S);
  fft::batched_column_sums(exec, rz, n, S, range, rz_sums);
  fft::batched_column_sums(exec, rr, n, S, range, rr_sums);
  const auto xh = x.to_host(), rh = r.to_host(), rzh = rz_sums.to_host(), rrh = rr_sums.to_host();
  const std::vector<double> d = m.diagonal.to_host();
  for (index_t s = range.begin; s < range.end; ++s) {
    double want_rz = 0, want_rr = 0;
    for (index_t c = 0; c < n; ++c) {
      const std::size_t i = static_cast<std::size_t>(c) * S + s;
      CHECK(xh[i] == x0[i] + alpha[s] * p0[i]);
      CHECK(rh[i] == r0[i] - alpha[s] * q0[i]);
      const double zi = s >= jacobi_begin ? rh[i] / (d[c] + shifts[s] * op.z_coupling[c]) : 0.0;
      if (c < owned) {
        want_rz += s >= jacobi_begin ? rh[i] * zi : 0.0;
        want_rr += rh[i] * rh[i];
      }
    }
    CHECK(rzh[s] == Approx(want_rz).epsilon(1e-13).margin(s >= jacobi_begin ? 0.0 : 1e-300));
    CHECK(rrh[s] == Approx(want_rr).epsilon(1e-13));
  }
  // The directions: z + β p below jacobi_begin, Jacobi's z formed from r above, bit for bit the
  // stored z of batched_jacobi followed by batched_direction; nothing outside the range. NaN where the
  // kernel must not read: z from jacobi_begin, r below it.
  const auto beta = test::random_vector(static_cast<std::size_t>(S), 16), z0 = test::random_vector(size, 17);
  std::vector<double> z_in = z0, r_in = rh;
  for (std::size_t i = 0; i < size; ++i)
    (static_cast<index_t>(i % static_cast<std::size_t>(S)) >= jacobi_begin ? z_in : r_in)[i] = std::nan("");
  Vector b = Vector::from_host(exec, beta), p_new = Vector::from_host(exec, p0);
  fft::batched_direction_jacobi(exec, m.view(), b, Vector::from_host(exec, z_in), Vector::from_host(exec, r_in), p_new,
                                S, range, jacobi_begin);
  Vector z_split = Vector::from_host(exec, z0), p_split = Vector::from_host(exec, p0);
  fft::batched_jacobi(exec, m.view(), r, z_split, S, {jacobi_begin, range.end});
  fft::batched_direction(exec, b, z_split, p_split, S, range);
  const auto ph = p_new.to_host(), want_p = p_split.to_host();
  for (std::size_t i = 0; i < size; ++i) {
    const auto s = static_cast<index_t>(i % static_cast<std::size_t>(S));
    if (s < range.begin || s >= range.end) CHECK(ph[i] == p0[i]);
    else CHECK(ph[i] == want_p[i]);
  }
}

TEST_CASE("Batched PCG solves each shifted system to its own tolerance and drops it out", "[fft]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(12, 10);
  const std::vector<double> shifts{0, 0.01, 1, 100};
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows), S = shifts.size();
  const int aip_blocks = GENERATE(0, 1);
  fft::BatchedPcg pcg(exec, op.in_plane, op.z_coupling, shifts, op.singular, 2);
  pcg.preconditioner().use_aip_blocks(aip_blocks);
  auto b_host = test::random_vector(n * S, 3);
  Vector b = Vector::from_host(exec, b_host), x(exec, static_cast<index_t>(n * S));
  const auto result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 2000});
  REQUIRE(result.converged);
  b_host = b.to_host();  // projected where singular
  const auto x_host = x.to_host();
  for (std::size_t s = 0; s < S; ++s) {
    const auto xs = column(x_host, S, s), bs = column(b_host, S, s);
    auto r = reference_spmv(fft::shifted_matrix(op.in_plane, op.z_coupling, shifts[s]), xs);
    for (std::size_t c = 0; c < n; ++c) r[c] -= bs[c];
    CHECK(norm(r) <= 10 * tolerance * norm(bs));
  }
  if (aip_blocks == 0) CHECK(result.iterations.back() < result.iterations.front() / 2);
}

TEST_CASE("Iterations queued past a system's stop leave its solution and iteration count unchanged", "[fft]") {
  // With check_interval > 1 the host learns of a stop only at the next read; the scalar kernels must
  // freeze a stopped system (α = β = 0) so that the result is that of reading after every iteration.
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(12, 10);
  const std::vector<double> shifts{0, 0, 0.01, 0.01, 1, 1, 100, 100};
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows), S = shifts.size();
  fft::BatchedPcg pcg(exec, op.in_plane, op.z_coupling, shifts, op.singular, 4);
  const int aip_blocks = GENERATE(0, 1);
  pcg.preconditioner().use_aip_blocks(aip_blocks);
  const auto b_host = test::random_vector(n * S, 5);
  const auto run = [&](int interval) {
    Vector b = Vector::from_host(exec, b_host), x(exec, static_cast<index_t>(n * S));
    const auto result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 2000, .check_interval = interval});
    REQUIRE(result.converged);
    return std::pair{result, x.to_host()};
  };
  const auto [every, x_every] = run(1);
  const auto [batched, x_batched] = run(7);
  CHECK(batched.iterations == every.iterations);
  CHECK(batched.relative_residual == every.relative_residual);
  CHECK(x_batched == x_every);  // bitwise
  CHECK(every.iterations[6] < every.iterations[0]);  // the systems did stop at different iterations
  // One host read of the systems' state per batch; the solve's set-up and finish read apart.
  CHECK(every.iteration_kernels.host_reads() == every.queued_iterations);
  CHECK(batched.queued_iterations % 7 == 0);
  CHECK(batched.iteration_kernels.host_reads() == batched.queued_iterations / 7);
  // The launched iterations by size: all of them, the first batch's (every system) the largest, and
  // smaller ones once systems stopped.
  for (const auto* r : {&every, &batched}) {
    int launched = 0;
    for (const IterationSize& size : r->iteration_sizes) launched += size.iterations;
    CHECK(launched == r->queued_iterations);
    REQUIRE(r->iteration_sizes.size() >= 2);
    for (const IterationSize& size : r->iteration_sizes) {
      CHECK(size.bytes <= r->iteration_sizes.front().bytes);
      CHECK(size.rows == static_cast<index_t>(n));  // the plane's rows
      CHECK(size.systems >= 1);
      CHECK(size.systems <= r->iteration_sizes.front().systems);
      // Of its bytes, the AIP block's (systems 0..3) while it is on and in the range.
      CHECK(size.preconditioner_bytes < size.bytes);
      if (aip_blocks == 0) CHECK(size.preconditioner_bytes == 0);
    }
    CHECK((r->iteration_sizes.front().preconditioner_bytes > 0) == (aip_blocks == 1));
    CHECK(r->iteration_sizes.front().systems == static_cast<index_t>(S));  // the first batch runs them all
    CHECK(r->iteration_sizes.back().bytes < r->iteration_sizes.front().bytes);
    CHECK(r->iteration_sizes.back().systems < static_cast<index_t>(S));
  }
}

TEST_CASE("A row stride beyond the systems gives the same solves and never reads the entries past them", "[fft]") {
  // The FFT path lays each row's systems out on 128-byte boundaries (mode_stride): entries past the
  // systems hold NaN here, which any kernel reading them would spread into the solution.
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(12, 10);
  const std::vector<double> shifts{0, 0, 0.01, 0.01, 1, 1};
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows), S = shifts.size(), stride = 16;
  const int leading_blocks = GENERATE(0, 1);
  const auto leading = GENERATE(fft::LeadingPreconditioner::aip, fft::LeadingPreconditioner::amg);
  const bool warm = GENERATE(false, true);
  CAPTURE(leading_blocks, leading == fft::LeadingPreconditioner::amg, warm);
  const auto b_dense = test::random_vector(n * S, 11), x_dense = test::random_vector(n * S, 12);
  const auto padded = [&](const std::vector<double>& v) {
    std::vector<double> out(n * stride, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t c = 0; c < n; ++c)
      for (std::size_t s = 0; s < S; ++s) out[c * stride + s] = v[c * S + s];
    return out;
  };
  const auto solve = [&](std::size_t row_stride, const std::vector<double>& b_host, const std::vector<double>& x_host) {
    fft::BatchedPcg pcg(exec, op.in_plane, op.z_coupling, shifts, op.singular, 2, 1, nullptr,
                        static_cast<index_t>(row_stride));
    pcg.preconditioner().use_leading_blocks(leading, leading_blocks);
    Vector b = Vector::from_host(exec, b_host), x = Vector::from_host(exec, x_host);
    const auto result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 2000, .check_interval = 3}, warm);
    REQUIRE(result.converged);
    return std::tuple{result, b.to_host(), x.to_host()};
  };
  const auto [dense, b_after, x_after] = solve(S, b_dense, x_dense);
  const auto [wide, b_wide, x_wide] = solve(stride, padded(b_dense), padded(x_dense));
  CHECK(wide.iterations == dense.iterations);
  CHECK(wide.relative_residual == dense.relative_residual);
  for (std::size_t c = 0; c < n; ++c) {
    for (std::size_t s = 0; s < S; ++s) {
      CHECK(x_wide[c * stride + s] == x_after[c * S + s]);  // bitwise
      CHECK(b_wide[c * stride + s] == b_after[c * S + s]);  // projected alike where singular
    }
    for (std::size_t s = S; s < stride; ++s) {
      CHECK(std::isnan(b_wide[c * stride + s]));
      if (warm) CHECK(std::isnan(x_wide[c * stride + s]));
      else CHECK(x_wide[c * stride + s] == 0);  // a cold solve starts from x = 0, set whole
    }
  }
}

TEST_CASE("AIP on a block of low frequencies takes fewer iterations than Jacobi there", "[fft]") {
  const Executor exec = Executor::cpu();
  const fft::PlaneOperator op = test::minus_plane_operator(16, 14);
  const std::vector<double> shifts{0, 0, 0.05, 0.05, 2, 2, 4, 4};
  const std::size_t n = static_cast<std::size_t>(op.in_plane.rows), S = shifts.size();
  fft::BatchedPcg pcg(exec, op.in_plane, op.z_coupling, shifts, op.singular, 4);
  REQUIRE(pcg.preconditioner().blocks() == 2);
  const auto b_host = test::random_vector(n * S, 8);
  const auto run = [&](int aip_blocks) {
    pcg.preconditioner().use_aip_blocks(aip_blocks);
    Vector b = Vector::from_host(exec, b_host), x(exec, static_cast<index_t>(n * S));
    const auto result = pcg.solve(b, x, {.tolerance = tolerance, .max_iterations = 2000});
    REQUIRE(result.converged);
    return result.iterations;
  };
  const auto jacobi = run(0), aip = run(1);
  CHECK(aip[0] < jacobi[0]);
  CHECK(aip[2] < jacobi[2]);
  CHECK(aip[6] == jacobi[6]);  // the second block is Jacobi in both
  CHECK_THAT(pcg.preconditioner().describe(), Catch::Matchers::Contains("AIP-1 on k = 0..1") &&
                                                  Catch::Matchers::Contains("Jacobi on k = 2..3"));
}

TEST_CASE("The greedy preconditioner choice depends only on the costs", "[fft]") {
  const auto chooser = [](std::vector<double> costs) {
    std::vector<int> asked;
    const int m = fft::choose_aip_blocks(static_cast<int>(costs.size()) - 1, [&](int k) {
      asked.push_back(k);
      return costs[k];
    });
    return std::make_pair(m, asked);
  };
  // Stops at the first configuration that does not gain 2 %, without looking further.
  CHECK(chooser({10, 8, 7, 7.5, 1}) == std::make_pair(2, std::vector<int>{0, 1, 2, 3}));
  CHECK(chooser({10, 12, 1}) == std::make_pair(0, std::vector<int>{0, 1}));
  CHECK(chooser({10, 9.9, 1}).first == 0);  // 1 % is noise
  CHECK(chooser({10, 5, 2, 1}) == std::make_pair(3, std::vector<int>{0, 1, 2, 3}));
  CHECK(chooser({10, std::numeric_limits<double>::infinity()}).first == 0);  // an unavailable AIP
  CHECK(chooser({10}).first == 0);
}

TEST_CASE("Preconditioner blocks keep a frequency's two parts together", "[fft]") {
  CHECK(fft::block_systems_for(66, 8) == 10);
  CHECK(fft::block_systems_for(258, 8) == 34);
  CHECK(fft::block_systems_for(6, 8) == 4);
}
