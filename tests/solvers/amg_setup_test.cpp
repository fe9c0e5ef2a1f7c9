// The AMG set-up's parallel pieces (solvers/amg/, solvers/matrix_checks.cpp): connected components by
// union-find, the aggregation by distance-2 independent sets, the prolongation built by aggregate
// sums, the power iterations' early stop, each the same on any thread count; the stage profile; the
// finest level shared with the solver; the aggregation and the Galerkin products on a CUDA device, the
// host's aggregates and bits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "operators/backend/cuda/device.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "solvers/amg/aggregation.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/amg/cuda/sparse_product.hpp"
#include "solvers/amg/device_aggregation.hpp"
#include "solvers/amg/device_level.hpp"
#include "solvers/amg/device_galerkin.hpp"
#include "solvers/amg/galerkin.hpp"
#include "solvers/amg/hierarchy.hpp"
#include "solvers/amg/prolongation.hpp"
#include "solvers/amg/spectral_bound.hpp"
#include "solvers/matrix_checks.hpp"
#include "tests/solvers/box_poisson.hpp"
#include "tests/thread_counts.hpp"

using namespace miniapp;
using test::box_poisson;
using test::side_by_side;

namespace {

CsrMatrix tet_box_poisson(index_t n, double stretch = 1.5) { return box_poisson("tet", n, stretch); }

// The same shape, pattern and value bits (−0.0 is not +0.0).
bool same_bits(const CsrMatrix& a, const CsrMatrix& b) {
  if (a.rows != b.rows || a.cols != b.cols || a.row_ptr != b.row_ptr || a.col != b.col) return false;
  for (std::size_t k = 0; k < a.val.size(); ++k)
    if (std::bit_cast<std::uint64_t>(a.val[k]) != std::bit_cast<std::uint64_t>(b.val[k])) return false;
  return true;
}

// Calls check(l, level) on every level l of the hierarchies of hex, tet and prism boxes (a section
// each), the denser coarse levels included.
template <class Check>
void on_every_box_level(Check check) {
  for (const std::string cells : {"hex", "tet", "prism"}) {
    SECTION(cells) {
      const amg::HostHierarchy h = amg::build_hierarchy(box_poisson(cells, 24), {.coarse_rows = 50});
      REQUIRE(h.levels.size() >= 3);
      for (std::size_t l = 0; l < h.levels.size(); ++l) check(l, h.levels[l]);
    }
  }
}

// Whether two preconditioners on `exec` give the same bits on one vector of `rows` entries.
bool same_apply(const Executor& exec, const Amg& x, const Amg& y, index_t rows) {
  std::vector<double> host_r(static_cast<std::size_t>(rows));
  for (std::size_t i = 0; i < host_r.size(); ++i) host_r[i] = std::sin(0.37 * static_cast<double>(i));
  const Vector r = Vector::from_host(exec, host_r);
  Vector zx(exec, rows), zy(exec, rows);
  x.apply(r, zx);
  y.apply(r, zy);
  return zx.to_host() == zy.to_host();
}

// Rows within `links` links of row i in g (i included).
std::vector<index_t> within_links(const CsrMatrix& g, index_t i, int links) {
  std::vector<index_t> rows{i};
  for (int l = 0; l < links; ++l) {
    const std::vector<index_t> front = rows;
    for (index_t r : front)
      for (index_t k = g.row_ptr[r]; k < g.row_ptr[r + 1]; ++k) rows.push_back(g.col[k]);
  }
  return rows;
}

}  // namespace

TEST_CASE("Floating components are found by union-find as by a search, on any thread count", "[amg]") {
  // Three 1D Laplacian chains whose rows interleave (row r in chain r % 3); chain 1 has a Dirichlet row
  // (a row that does not sum to zero), so chains 0 and 2 float, first rows 0 and 2.
  const index_t n = 3 * 20000;  // entries enough for parallel loops (cpu::worth_parallel)
  std::vector<Triplet> t;
  for (index_t r = 0; r < n; ++r) {
    const bool end = r < 3 || r >= n - 3;
    t.push_back({r, r, (end ? 1.0 : 2.0) + (r == 4 ? 1.0 : 0.0)});
    if (r >= 3) t.push_back({r, r - 3, -1.0});
    if (r + 3 < n) t.push_back({r, r + 3, -1.0});
  }
  const CsrMatrix a = csr_from_triplets(n, n, std::move(t));
  const auto [one, three] = test::on_one_and_three_threads([&] { return floating_components(a); });
  CHECK(one == std::vector<index_t>{0, 2});
  CHECK(three == one);
  CHECK_THROWS_WITH(check_single_null_vector(a, "test"), Catch::Contains("2 disconnected pieces") &&
                                                             Catch::Contains("rows 0 and 2"));
}

TEST_CASE("Aggregation: every row near its root, aggregates numbered by their roots, the same on any thread count",
          "[amg]") {
  const CsrMatrix a = tet_box_poisson(16);  // entries enough for parallel loops (cpu::worth_parallel)
  const std::vector<double> d = positive_diagonal(a, "test");
  const CsrMatrix f = amg::filtered_matrix(a, d, 0.08);
  const auto [one, three] = test::on_one_and_three_threads([&] { return amg::aggregate(f, d); });
  REQUIRE(one.count == three.count);
  CHECK(one.of_row == three.of_row);
  // Each aggregate lies within two links of its root, the roots' rows increase with the aggregates'
  // numbers, and the mesh coarsens by 4 to 12.
  REQUIRE(one.root.size() == static_cast<std::size_t>(one.count));
  CHECK(std::is_sorted(one.root.begin(), one.root.end()));
  std::vector<std::vector<index_t>> members(static_cast<std::size_t>(one.count));
  for (index_t i = 0; i < a.rows; ++i) members[one.of_row[i]].push_back(i);
  for (index_t k = 0; k < one.count; ++k) {
    REQUIRE(one.of_row[one.root[k]] == k);
    const auto near = within_links(f, one.root[k], 2);
    CHECK(std::all_of(members[k].begin(), members[k].end(),
                      [&](index_t r) { return std::find(near.begin(), near.end(), r) != near.end(); }));
  }
  CHECK(a.rows > 4 * one.count);
  CHECK(a.rows < 12 * one.count);
}

TEST_CASE("The smoothed prolongation is T minus omega D_F^-1 A_F T", "[amg]") {
  const CsrMatrix a = tet_box_poisson(6);
  const std::vector<double> d = positive_diagonal(a, "test");
  const CsrMatrix f = amg::filtered_matrix(a, d, 0.08);
  const amg::Aggregates agg = amg::aggregate(f, d);
  const CsrMatrix t = amg::tentative_prolongation(agg), p = amg::smoothed_prolongation(f, agg);
  const CsrMatrix ft = multiply(f, t);
  REQUIRE(p.row_ptr == ft.row_ptr);
  REQUIRE(p.col == ft.col);
  // (P − T)_ij f_ii / (A_F T)_ij is the same −ω for every entry.
  double omega = 0;
  for (index_t i = 0; i < p.rows; ++i) {
    double fii = 0;
    for (index_t k = f.row_ptr[i]; k < f.row_ptr[i + 1]; ++k)
      if (f.col[k] == i) fii = f.val[k];
    for (index_t k = p.row_ptr[i]; k < p.row_ptr[i + 1]; ++k) {
      if (std::abs(ft.val[k]) < 1e-12 * fii) continue;
      const double tentative = p.col[k] == agg.of_row[i] ? 1.0 : 0.0;
      const double ratio = -(p.val[k] - tentative) * fii / ft.val[k];
      if (omega == 0) omega = ratio;
      CHECK(ratio == Approx(omega).epsilon(1e-10));
    }
  }
  // ω = 4 / (3 λ) with λ Gershgorin's bound 2 (an M-matrix whose rows sum to zero, where 1.1 times
  // the power estimate exceeds it).
  CHECK(omega == Approx(2.0 / 3.0).epsilon(1e-12));
}

TEST_CASE("Each level's prolongation is the one its filtered matrix gives, where filtering kept every link too",
          "[amg]") {
  // Where filtering would drop nothing, as on the finest level of an unstretched mesh, the hierarchy
  // takes the level's own matrix and bound for the filtered matrix's.
  const CsrMatrix a = tet_box_poisson(12, 0);
  const amg::AmgOptions options{.coarse_rows = 50};
  const amg::HostHierarchy h = amg::build_hierarchy(a, options);
  REQUIRE(h.levels.size() >= 2);
  int unfiltered_levels = 0;
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const amg::HostLevel& level = h.levels[l];
    const double threshold = options.strength_threshold * std::pow(0.5, static_cast<double>(l));
    const CsrMatrix f = amg::filtered_matrix(level.a.host, level.diagonal, threshold);
    const bool unfiltered = amg::drops_no_link(level.a.host, level.diagonal, threshold);
    CHECK(unfiltered == (f.nnz() == level.a.host.nnz()));
    if (unfiltered) CHECK(f.val == level.a.host.val);
    unfiltered_levels += unfiltered;
    const CsrMatrix p = amg::smoothed_prolongation(f, amg::aggregate(f, level.diagonal));
    CHECK(level.prolongation.host.col == p.col);
    CHECK(level.prolongation.host.val == p.val);
  }
  CHECK(unfiltered_levels >= 1);
  CHECK(unfiltered_levels < static_cast<int>(h.levels.size()));
}

TEST_CASE("The eigenvalue bound stops at Gershgorin's bound and is the same on any thread count", "[amg]") {
  const CsrMatrix a = tet_box_poisson(16);
  const std::vector<double> d = positive_diagonal(a, "test");
  const auto [one, three] = test::on_one_and_three_threads([&] { return amg::largest_eigenvalue_bound(a, d); });
  CHECK(one == three);
  double gershgorin = 0;
  for (index_t i = 0; i < a.rows; ++i) {
    double sum = 0;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum += std::abs(a.val[k]);
    gershgorin = std::max(gershgorin, sum / d[i]);
  }
  CHECK(one <= gershgorin);
  CHECK(one > 0.8 * gershgorin);
}

TEST_CASE("The set-up profile times every host stage of the hierarchy", "[amg]") {
  const CsrMatrix a = tet_box_poisson(8);
  const amg::HostHierarchy h = amg::build_hierarchy(a, {.coarse_rows = 50});
  using S = amg::SetupStage;
  for (S s : {S::checks, S::aggregation, S::spectral_bound, S::prolongation, S::galerkin, S::coarse_inverse})
    CHECK(h.profile[s] > 0);
  CHECK(h.profile[S::conversion] == 0);  // the Amg's, not the host hierarchy's
  CHECK(h.profile.total() == Approx(h.profile[S::checks] + h.profile[S::aggregation] + h.profile[S::spectral_bound] +
                                    h.profile[S::prolongation] + h.profile[S::galerkin] +
                                    h.profile[S::coarse_inverse]));
}

TEST_CASE("AMG on the solver's own finest matrix applies exactly as with its own copy", "[amg]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = tet_box_poisson(8);
  const amg::HostHierarchy h = amg::build_hierarchy(a, {.coarse_rows = 50});
  const DeviceSell device_a(exec, to_sell(a, 8));
  const std::size_t structure_bytes = 4 * (a.rows / 8 + 1) + 4 * to_sell(a, 8).stored_entries();
  for (const bool float_storage : {false, true}) {
    INFO((float_storage ? "float" : "double") << " matrices");
    const amg::AmgOptions options{.float_storage = float_storage};
    const std::size_t before = exec.bytes_allocated();
    const Amg own(exec, h, options, 8);
    const std::size_t own_bytes = exec.bytes_allocated() - before;
    const Amg shared(exec, h, options, 8, &device_a);
    const std::size_t shared_bytes = exec.bytes_allocated() - before - own_bytes;
    // Shared: with double values none of the finest matrix, with float ones its values alone.
    const std::size_t fine_bytes = float_storage ? structure_bytes : structure_bytes + 8 * to_sell(a, 8).stored_entries();
    CHECK(Amg::device_bytes(h, 8, options, true) == Amg::device_bytes(h, 8, options) - fine_bytes);
    CHECK(own_bytes == Amg::device_bytes(h, 8, options));
    CHECK(shared_bytes == Amg::device_bytes(h, 8, options, true));
    CHECK(same_apply(exec, own, shared, a.rows));
    // A smoother of degree 2 holds four more vectors a level than degree 1's single D⁻¹/θ.
    const amg::AmgOptions degree2{.smoother_degree = 2, .float_storage = float_storage};
    const std::size_t before2 = exec.bytes_allocated();
    const Amg smoother2(exec, h, degree2, 8);
    CHECK(exec.bytes_allocated() - before2 == Amg::device_bytes(h, 8, degree2));
    std::size_t level_rows = 0;
    for (const amg::HostLevel& l : h.levels) level_rows += static_cast<std::size_t>(l.rows());
    CHECK(Amg::device_bytes(h, 8, degree2) - Amg::device_bytes(h, 8, options) == 4 * sizeof(double) * level_rows);
  }
  const DeviceSell other(exec, to_sell(tet_box_poisson(6), 8));
  CHECK_THROWS_WITH(Amg(exec, h, {}, 8, &other), Catch::Contains("not the hierarchy's"));
}

TEST_CASE("A matrix given with an executor copy needs its host copy, and the copy must be of it", "[amg]") {
  const Executor cpu = Executor::cpu();
  const CsrMatrix a = box_poisson("hex", 12), other = box_poisson("hex", 10);
  const amg::HostHierarchy plain = amg::build_hierarchy(a, {.coarse_rows = 50});
  const amg::HostHierarchy given = amg::build_hierarchy(amg::SetupMatrix{a, DeviceCsr(cpu, a)}, {.coarse_rows = 50});
  REQUIRE(given.levels.size() == plain.levels.size());
  for (std::size_t l = 0; l < plain.levels.size(); ++l)
    CHECK(same_bits(given.levels[l].prolongation.host_copy(), plain.levels[l].prolongation.host));
  CHECK_THROWS_WITH(amg::build_hierarchy(amg::SetupMatrix{CsrMatrix{}, DeviceCsr(cpu, a)}, {}),
                    Catch::Contains("no host copy"));
  CHECK_THROWS_WITH(amg::build_hierarchy(amg::SetupMatrix{a, DeviceCsr(cpu, other)}, {}),
                    Catch::Contains("is not its host copy"));
}

TEST_CASE("On a CUDA device the Galerkin products are the host's bit for bit", "[amg][cuda]") {
  if (cuda::device_count() == 0) {
    WARN("skipped: no CUDA device (or a build without CUDA)");
    return;
  }
  const Executor gpu = Executor::cuda(), cpu = Executor::cpu();
  CHECK_FALSE(amg::device_galerkin_product(cpu, CsrMatrix{}, CsrMatrix{}, CsrMatrix{}).has_value());
  on_every_box_level([&](std::size_t, const amg::HostLevel& level) {
    const CsrMatrix &r = level.restriction.host, &a = level.a.host, &p = level.prolongation.host;
    const auto on_device = amg::device_galerkin_product(gpu, r, a, p);
    REQUIRE(on_device.has_value());
    CHECK(same_bits(on_device->to_host(), amg::galerkin_product(r, a, p)));
  });
  SECTION("a hierarchy whose finest level has its products on the device equals the host's") {
    const CsrMatrix a = box_poisson("hex", 40);
    REQUIRE(a.rows >= amg::device_setup_rows);
    const amg::HostHierarchy on_host = amg::build_hierarchy(a, {}), with_device = amg::build_hierarchy(a, {}, &gpu);
    REQUIRE(with_device.levels.size() == on_host.levels.size());
    for (std::size_t l = 0; l < on_host.levels.size(); ++l) {
      CHECK(same_bits(with_device.levels[l].a.host_copy(), on_host.levels[l].a.host));
      CHECK(same_bits(with_device.levels[l].prolongation.host_copy(), on_host.levels[l].prolongation.host));
      CHECK(same_bits(with_device.levels[l].restriction.host_copy(), on_host.levels[l].restriction.host));
      CHECK(std::bit_cast<std::uint64_t>(with_device.levels[l].lambda_max) ==
            std::bit_cast<std::uint64_t>(on_host.levels[l].lambda_max));
    }
    CHECK(same_bits(with_device.coarsest, on_host.coarsest));
    CHECK(with_device.profile[amg::SetupStage::galerkin] > 0);
    // The finest level's P and R stay on the device, and the preconditioner lays them out from there:
    // the same cycle as from the host's hierarchy.
    REQUIRE(with_device.levels[0].prolongation.device.has_value());
    CHECK(with_device.levels[0].prolongation.host.nnz() == 0);
    // The coarser levels' A stay where the device multiplied them (the finest is the solver's).
    CHECK_FALSE(with_device.levels[0].a.device.has_value());
    REQUIRE(with_device.levels.size() > 1);
    REQUIRE(with_device.levels[1].a.device.has_value());
    CHECK(same_bits(with_device.levels[1].a.device->to_host(), on_host.levels[1].a.host));
    CHECK(Amg::device_bytes(with_device, 32, {.float_storage = false}) ==
          Amg::device_bytes(on_host, 32, {.float_storage = false}));
    CHECK(same_apply(gpu, Amg(gpu, with_device, {}, 32), Amg(gpu, on_host, {}, 32), a.rows));
  }
  SECTION("given A's device copy (the solver's −L, uploaded once), the set-up reads it: the same hierarchy") {
    const CsrMatrix a = box_poisson("tet", 30);
    REQUIRE(a.rows >= amg::device_setup_rows);
    const amg::HostHierarchy from_host = amg::build_hierarchy(a, {}, &gpu),
                             given = amg::build_hierarchy(amg::SetupMatrix{a, DeviceCsr(gpu, a)}, {}, &gpu);
    REQUIRE(given.levels.size() == from_host.levels.size());
    for (std::size_t l = 0; l < from_host.levels.size(); ++l) {
      CHECK(same_bits(given.levels[l].a.host_copy(), from_host.levels[l].a.host_copy()));
      CHECK(same_bits(given.levels[l].prolongation.host_copy(), from_host.levels[l].prolongation.host_copy()));
      CHECK(given.levels[l].diagonal == from_host.levels[l].diagonal);
    }
    CHECK(same_bits(given.coarse_inverse, from_host.coarse_inverse));
    CHECK_FALSE(given.levels[0].a.device.has_value());  // released after the finest level, as its own copy
    // The solver's sELL laid out from that copy is the one uploaded from the host.
    const DeviceSell laid_out(DeviceCsr(gpu, a), 32), uploaded(gpu, a, 32);
    const DeviceSell::Structure s1 = laid_out.structure_window(), s2 = uploaded.structure_window();
    CHECK(s1.slice_ptr.to_host() == s2.slice_ptr.to_host());
    CHECK(s1.col.to_host() == s2.col.to_host());
    CHECK(laid_out.values().to_host() == uploaded.values().to_host());
  }
  SECTION("a coarser level set up on the device keeps its A there only, the host's bit for bit") {
    const CsrMatrix a = box_poisson("tet", 30);
    const amg::HostHierarchy on_host = amg::build_hierarchy(a, {}), with_device = amg::build_hierarchy(a, {}, &gpu);
    REQUIRE(with_device.levels.size() == on_host.levels.size());
    REQUIRE(with_device.levels.size() > 2);
    REQUIRE(with_device.levels[1].rows() >= amg::device_setup_rows);
    CHECK(with_device.levels[1].a.host.nnz() == 0);  // no host step read it
    REQUIRE(with_device.levels[1].a.device.has_value());
    for (std::size_t l = 0; l < on_host.levels.size(); ++l) {
      CHECK(with_device.levels[l].rows() == on_host.levels[l].rows());
      CHECK(with_device.levels[l].nnz() == on_host.levels[l].nnz());
      CHECK(same_bits(with_device.levels[l].a.host_copy(), on_host.levels[l].a.host));
      CHECK(with_device.levels[l].diagonal == on_host.levels[l].diagonal);
    }
    CHECK(same_bits(with_device.coarsest, on_host.coarsest));
    CHECK(amg::operator_complexity(with_device) == amg::operator_complexity(on_host));
    CHECK(Amg::device_bytes(with_device, 32, {}) == Amg::device_bytes(on_host, 32, {}));
    CHECK(same_apply(gpu, Amg(gpu, with_device, {}, 32), Amg(gpu, on_host, {}, 32), a.rows));
  }
  SECTION("P made on the host (plain aggregation): the device multiplies with the A it holds, never the host's copy") {
    const CsrMatrix a = box_poisson("tet", 30);
    const amg::AmgOptions plain{.smoothed = false};
    const amg::HostHierarchy on_host = amg::build_hierarchy(a, plain),
                             with_device = amg::build_hierarchy(a, plain, &gpu);
    REQUIRE(with_device.levels.size() == on_host.levels.size());
    REQUIRE(with_device.levels.size() > 2);
    REQUIRE(with_device.levels[1].rows() >= amg::device_setup_rows);
    // Level 1's A, the device's product, stayed there through its own level's set-up and product.
    CHECK(with_device.levels[1].a.host.nnz() == 0);
    REQUIRE(with_device.levels[1].a.device.has_value());
    REQUIRE(with_device.levels[2].a.device.has_value());
    for (std::size_t l = 0; l < on_host.levels.size(); ++l) {
      CHECK(same_bits(with_device.levels[l].a.host_copy(), on_host.levels[l].a.host));
      CHECK(same_bits(with_device.levels[l].prolongation.host_copy(), on_host.levels[l].prolongation.host));
    }
    CHECK(same_bits(with_device.coarsest, on_host.coarsest));
    CHECK(same_apply(gpu, Amg(gpu, with_device, plain, 32), Amg(gpu, on_host, plain, 32), a.rows));
  }
  SECTION("a row with more columns than the device's table: nothing, and the host multiplies") {
    // R = [1 … 1] (one row), A = I, P = I: R A P has one row of n columns.
    for (const index_t n : {amg::cuda::product_row_capacity, amg::cuda::product_row_capacity + 1}) {
      std::vector<Triplet> ones, identity;
      for (index_t j = 0; j < n; ++j) {
        ones.push_back({0, j, 1.0 + j});
        identity.push_back({j, j, 0.5});
      }
      const CsrMatrix r = csr_from_triplets(1, n, std::move(ones)), i = csr_from_triplets(n, n, std::move(identity));
      const auto on_device = amg::device_galerkin_product(gpu, r, i, i);
      if (n > amg::cuda::product_row_capacity) CHECK_FALSE(on_device.has_value());
      else CHECK((on_device && same_bits(on_device->to_host(), amg::galerkin_product(r, i, i))));
    }
  }
}

TEST_CASE("With a CUDA device the finest level's connectivity check, run beside its set-up, refuses a disconnected mesh",
          "[amg][cuda]") {
  if (cuda::device_count() == 0) {
    WARN("skipped: no CUDA device (or a build without CUDA)");
    return;
  }
  const Executor gpu = Executor::cuda();
  // Two closed boxes side by side, with no link: two floating pieces, large enough for the device.
  const CsrMatrix one = box_poisson("hex", 18), two = side_by_side(one);
  REQUIRE(two.rows >= amg::device_setup_rows);
  CHECK_THROWS_WITH(amg::build_hierarchy(two, {}, &gpu), Catch::Contains("2 disconnected pieces"));
  // No level set up (one level allowed): checked all the same.
  CHECK_THROWS_WITH(amg::build_hierarchy(two, {.max_levels = 1}, &gpu), Catch::Contains("2 disconnected pieces"));
  CHECK_NOTHROW(amg::build_hierarchy(one, {}, &gpu));
}

TEST_CASE("On a CUDA device the aggregation makes the host's aggregates", "[amg][cuda]") {
  if (cuda::device_count() == 0) {
    WARN("skipped: no CUDA device (or a build without CUDA)");
    return;
  }
  const Executor gpu = Executor::cuda(), cpu = Executor::cpu();
  const auto same_as_host = [&](const CsrMatrix& g, const std::vector<double>& d) {
    const amg::Aggregates host = amg::aggregate(g, d);
    const std::optional<amg::Aggregates> device = amg::device_aggregate(DeviceCsr(gpu, g), Vector::from_host(gpu, d));
    REQUIRE(device.has_value());
    CHECK(device->count == host.count);
    CHECK(device->of_row == host.of_row);
    CHECK(device->root == host.root);
  };
  // Every level, the finest without and with weak links dropped, the denser coarse ones filtered as
  // the hierarchy filters them (a few of their links are positive).
  on_every_box_level([&](std::size_t l, const amg::HostLevel& level) {
    if (l == 0) same_as_host(level.a.host, level.diagonal);
    same_as_host(amg::filtered_matrix(level.a.host, level.diagonal, 0.08 * std::pow(0.5, static_cast<double>(l))),
                 level.diagonal);
  });
  SECTION("rows without strong links are aggregates of their own") {
    CsrMatrix a = tet_box_poisson(8);
    const std::vector<double> d = positive_diagonal(a, "test");
    // Rows 0-99 keep only their diagonal.
    const CsrMatrix f = amg::filtered_matrix(a, d, 0.08);
    std::vector<Triplet> kept;
    for (index_t i = 0; i < f.rows; ++i)
      for (index_t k = f.row_ptr[i]; k < f.row_ptr[i + 1]; ++k)
        if (f.col[k] == i || (i >= 100 && f.col[k] >= 100)) kept.push_back({i, f.col[k], f.val[k]});
    const CsrMatrix g = csr_from_triplets(f.rows, f.cols, std::move(kept));
    same_as_host(g, d);
    CHECK(amg::aggregate(g, d).of_row[7] == 7);  // the first 100 rows' aggregates come first, one each
  }
  SECTION("another backend: nothing") {
    CHECK_FALSE(amg::device_aggregate(DeviceCsr(cpu, tet_box_poisson(4)), Vector::from_host(cpu, std::vector<double>(384, 1.0)))
                    .has_value());
  }
}

TEST_CASE("On a CUDA device a level's filtered matrix, eigenvalue bound, prolongation and transpose are the host's bit "
          "for bit",
          "[amg][cuda]") {
  if (cuda::device_count() == 0) {
    WARN("skipped: no CUDA device (or a build without CUDA)");
    return;
  }
  const Executor gpu = Executor::cuda();
  const auto same_double = [](double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); };
  on_every_box_level([&](std::size_t l, const amg::HostLevel& level) {
    const DeviceCsr a(gpu, level.a.host);
    const Vector d = Vector::from_host(gpu, level.diagonal);
    // On the coarse levels, where Gershgorin's bound is loose, the power iterations do not stop early.
    CHECK(same_double(amg::device_eigenvalue_bound(a, d), amg::largest_eigenvalue_bound(level.a.host, level.diagonal)));
    const double threshold = 0.08 * std::pow(0.5, static_cast<double>(l));
    const CsrMatrix f = amg::filtered_matrix(level.a.host, level.diagonal, threshold);
    const std::optional<DeviceCsr> device_f = amg::device_filtered_matrix(a, d, threshold);
    CHECK(device_f.has_value() == !amg::drops_no_link(level.a.host, level.diagonal, threshold));
    if (device_f) CHECK(same_bits(device_f->to_host(), f));
    // A threshold that drops every off-diagonal link: only the lumped diagonals are left.
    const std::optional<DeviceCsr> diagonal_only = amg::device_filtered_matrix(a, d, 2.0);
    REQUIRE(diagonal_only.has_value());
    CHECK(same_bits(diagonal_only->to_host(), amg::filtered_matrix(level.a.host, level.diagonal, 2.0)));
    const amg::Aggregates aggregates = amg::aggregate(f, level.diagonal);
    const auto of_row = Array<index_t>::from_host(gpu, aggregates.of_row);
    // A_F's own bound (filtered), and a bound given (as for an unfiltered level).
    for (const std::optional<double> known : {std::optional<double>(), std::optional<double>(level.lambda_max)}) {
      const std::optional<DeviceCsr> p =
          amg::device_smoothed_prolongation(DeviceCsr(gpu, f), of_row, aggregates.count, known);
      REQUIRE(p.has_value());
      const CsrMatrix host_p = amg::smoothed_prolongation(f, aggregates, known);
      CHECK(same_bits(p->to_host(), host_p));
      const std::optional<DeviceCsr> r = amg::device_transpose(*p);
      REQUIRE(r.has_value());
      CHECK(same_bits(r->to_host(), transpose(host_p)));
    }
  });
  SECTION("an empty matrix's transpose") {
    const std::optional<DeviceCsr> r = amg::device_transpose(DeviceCsr(gpu, CsrMatrix{3, 5, {0, 0, 0, 0}, {}, {}}));
    REQUIRE(r.has_value());
    CHECK(same_bits(r->to_host(), CsrMatrix{5, 3, {0, 0, 0, 0, 0, 0}, {}, {}}));
  }
}
