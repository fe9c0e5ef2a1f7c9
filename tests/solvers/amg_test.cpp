// The AMG preconditioner (solvers/amg/): hierarchy pieces on the host, the V-cycle's symmetry and
// positivity, AMG-PCG against Jacobi-PCG, bounded iterations over mesh sequences, and bad input.
#include <catch2/catch.hpp>
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "operators/backend/cuda/device.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "solvers/amg/aggregation.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/amg/coarse_inverse.hpp"
#include "solvers/amg/galerkin.hpp"
#include "solvers/amg/level_matrix.hpp"
#include "solvers/amg/prolongation.hpp"
#include "solvers/distributed_pcg.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/matrix_checks.hpp"
#include "solvers/pcg.hpp"
#include "tests/solvers/box_poisson.hpp"

using namespace miniapp;
using test::box_poisson;
using test::minus_laplacian;
using test::side_by_side;

namespace {

// −L plus a positive diagonal shift on the first row: symmetric positive definite.
CsrMatrix definite(CsrMatrix a) {
  for (index_t k = a.row_ptr[0]; k < a.row_ptr[1]; ++k)
    if (a.col[k] == 0) a.val[k] += 1.0;
  return a;
}

std::vector<double> random_vector(index_t n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& x : v) x = value(engine);
  return v;
}

void remove_mean(std::vector<double>& v) {
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  for (double& x : v) x -= mean;
}

double host_dot(const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += x[i] * y[i];
  return s;
}

std::vector<double> apply(const Preconditioner& m, const Executor& exec, const std::vector<double>& r) {
  const Vector device_r = Vector::from_host(exec, r);
  Vector z(exec, static_cast<index_t>(r.size()));
  m.apply(device_r, z);
  return z.to_host();
}

PcgResult solve(const CsrMatrix& a, const Preconditioner& m, const std::vector<double>& b, std::vector<double>& x,
                bool singular, const Executor& exec = Executor::cpu()) {
  const DeviceSell device_a(exec, to_sell(a, exec.default_slice_height()));
  const Vector device_b = Vector::from_host(exec, b);
  Vector device_x(exec, a.rows);
  fill(exec, 0.0, device_x);
  Pcg pcg(exec, a.rows);
  const PcgResult result = pcg.solve(device_a, m, device_b, device_x,
                                     {.tolerance = 1e-10, .max_iterations = 2000, .singular = singular});
  x = device_x.to_host();
  return result;
}

}  // namespace

TEST_CASE("Aggregation puts every row in one aggregate of connected rows", "[amg]") {
  const CsrMatrix a = box_poisson("tet", 6);
  const std::vector<double> d = positive_diagonal(a, "test");
  const amg::Aggregates agg = amg::aggregate(amg::filtered_matrix(a, d, 0.08), d);
  REQUIRE(agg.of_row.size() == static_cast<std::size_t>(a.rows));
  std::vector<int> members(static_cast<std::size_t>(agg.count), 0);
  for (index_t g : agg.of_row) {
    REQUIRE(g >= 0);
    REQUIRE(g < agg.count);
    ++members[g];
  }
  for (int m : members) CHECK(m >= 1);
  CHECK(agg.count < a.rows / 3);  // it coarsens
  // Each row shares its aggregate with a neighbour unless it is alone in it.
  for (index_t i = 0; i < a.rows; ++i) {
    if (members[agg.of_row[i]] == 1) continue;
    bool linked = false;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      linked = linked || (a.col[k] != i && agg.of_row[a.col[k]] == agg.of_row[i]);
    CHECK(linked);
  }
}

TEST_CASE("Prolongations reproduce the constants", "[amg]") {
  const CsrMatrix a = box_poisson("hex", 6);
  const std::vector<double> d = positive_diagonal(a, "test");
  const CsrMatrix f = amg::filtered_matrix(a, d, 0.08);
  const amg::Aggregates agg = amg::aggregate(f, d);
  const std::vector<double> ones(static_cast<std::size_t>(agg.count), 1.0);
  for (const CsrMatrix& p : {amg::tentative_prolongation(agg), amg::smoothed_prolongation(f, agg)}) {
    REQUIRE(p.cols == agg.count);
    for (double v : reference_spmv(p, ones)) CHECK(v == Approx(1.0).margin(1e-12));
  }
}

TEST_CASE("Filtering drops weak links into the diagonal and keeps row sums", "[amg]") {
  const CsrMatrix a = minus_laplacian(mesh::make_hex_box({.cells = {6, 6, 6}, .length = {1, 10, 1}}));
  const std::vector<double> d = positive_diagonal(a, "test");
  const CsrMatrix f = amg::filtered_matrix(a, d, 0.08);
  CHECK(f.nnz() < a.nnz());  // the y links of cells 10 times longer in y are weak
  const std::vector<double> ones(static_cast<std::size_t>(a.rows), 1.0);
  const auto sum_a = reference_spmv(a, ones), sum_f = reference_spmv(f, ones);
  for (index_t i = 0; i < a.rows; ++i) {
    CHECK(sum_f[i] == Approx(sum_a[i]).margin(1e-12 * d[i]));
    for (index_t k = f.row_ptr[i]; k < f.row_ptr[i + 1]; ++k)
      if (f.col[k] != i) CHECK(amg::link_strength(f.val[k], d[i], d[f.col[k]]) >= 0.08);
  }
}

TEST_CASE("Filtering keeps a row's own diagonal where its weak links would make it non-positive", "[amg]") {
  // Row 0: a strong positive link to row 1 and two weak negative ones (to rows of a large diagonal)
  // summing past its diagonal; rows 3 and 4 an ordinary pair with a weak link, which is lumped.
  const CsrMatrix a = csr_from_triplets(5, 5, {{0, 0, 1.0}, {0, 1, 0.5}, {0, 2, -0.6}, {0, 3, -0.6},
                                               {1, 0, 0.5}, {1, 1, 1.0}, {2, 0, -0.6}, {2, 2, 1e4},
                                               {3, 0, -0.6}, {3, 3, 1e4}, {3, 4, -1.0}, {4, 3, -1.0}, {4, 4, 2e4}});
  const std::vector<double> d = positive_diagonal(a, "test");
  const CsrMatrix f = amg::filtered_matrix(a, d, 0.08);
  const std::vector<double> fd = amg::row_diagonal(f);
  CHECK(fd[0] == 1.0);  // 1 − 1.2 would be negative
  CHECK(fd[1] == 1.0);  // nothing weak
  CHECK(fd[3] == Approx(1e4 - 1.6));  // both links weak, lumped
  for (double v : fd) CHECK(v > 0);
}

TEST_CASE("The Galerkin product equals the general sparse product", "[amg]") {
  const CsrMatrix a = box_poisson("tet", 5);
  const std::vector<double> d = positive_diagonal(a, "test");
  const CsrMatrix f = amg::filtered_matrix(a, d, 0.08);
  const CsrMatrix p = amg::smoothed_prolongation(f, amg::aggregate(f, d));
  const CsrMatrix r = transpose(p);
  const CsrMatrix fast = amg::galerkin_product(r, a, p), general = multiply(r, multiply(a, p));
  CHECK(fast.rows == general.rows);
  CHECK(fast.cols == general.cols);
  CHECK(fast.row_ptr == general.row_ptr);
  CHECK(fast.col == general.col);
  CHECK(fast.val == general.val);  // bitwise: the same sums in the same order
}

TEST_CASE("The sparse product equals the general one on full rows and signed zeros", "[amg]") {
  // Row 0 of A B reaches every column of B (and revisits them); row 1's first product in column 0 is
  // −0.0, which the general product adds to 0.0: +0.0.
  const CsrMatrix a = csr_from_triplets(2, 3, {{0, 0, 1.0}, {0, 1, 2.0}, {0, 2, -3.0}, {1, 1, -1.0}});
  const CsrMatrix b = csr_from_triplets(3, 2, {{0, 0, 0.25}, {0, 1, 1e-17}, {1, 0, 0.0}, {1, 1, 0.5},
                                               {2, 0, 1.0}, {2, 1, -1.0}});
  const CsrMatrix fast = amg::sparse_product(a, b), general = multiply(a, b);
  REQUIRE(fast.row_ptr == general.row_ptr);
  CHECK(fast.col == general.col);
  REQUIRE(fast.val.size() == 4);
  for (std::size_t k = 0; k < fast.val.size(); ++k)
    CHECK(std::bit_cast<std::uint64_t>(fast.val[k]) == std::bit_cast<std::uint64_t>(general.val[k]));
  CHECK_FALSE(std::signbit(fast.val[2]));
}

TEST_CASE("The hierarchy does not depend on the thread count", "[amg]") {
  const CsrMatrix a = box_poisson("tet", 16);  // entries enough for parallel loops (cpu::worth_parallel)
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const amg::HostHierarchy one = amg::build_hierarchy(a, {.coarse_rows = 50});
  omp_set_num_threads(3);
  const amg::HostHierarchy three = amg::build_hierarchy(a, {.coarse_rows = 50});
  omp_set_num_threads(threads);
  REQUIRE(one.levels.size() == three.levels.size());
  REQUIRE(one.levels.size() >= 2);
  for (std::size_t l = 0; l < one.levels.size(); ++l) {
    CHECK(one.levels[l].lambda_max == three.levels[l].lambda_max);
    CHECK(one.levels[l].prolongation.host.val == three.levels[l].prolongation.host.val);
  }
  CHECK(one.coarse_inverse.val == three.coarse_inverse.val);
}

TEST_CASE("The coarse pseudo-inverse inverts on the range and drops the constants", "[amg]") {
  const CsrMatrix singular = box_poisson("hex", 4);  // 64 rows
  const CsrMatrix pinv = amg::dense_pseudo_inverse(singular);
  REQUIRE(pinv.nnz() == singular.rows * singular.rows);
  auto b = random_vector(singular.rows, 3);
  remove_mean(b);
  const auto x = reference_spmv(pinv, b);
  const auto ax = reference_spmv(singular, x);
  for (index_t i = 0; i < singular.rows; ++i) CHECK(ax[i] == Approx(b[i]).margin(1e-10));
  double mean = 0;
  for (double v : x) mean += v;
  CHECK(std::abs(mean) < 1e-10);
  const std::vector<double> ones(static_cast<std::size_t>(singular.rows), 1.0);
  for (double v : reference_spmv(pinv, ones)) CHECK(std::abs(v) < 1e-9);
  const CsrMatrix spd = definite(singular);
  const auto y = reference_spmv(spd, reference_spmv(amg::dense_pseudo_inverse(spd), ones));
  for (double v : y) CHECK(v == Approx(1.0).margin(1e-9));
}

TEST_CASE("The AMG V-cycle is symmetric and positive definite", "[amg]") {
  const Executor exec = Executor::cpu();
  for (const char* cells : {"hex", "tet"}) {
    const CsrMatrix a = definite(box_poisson(cells, 10));
    const Amg m(exec, a, {.coarse_rows = 50}, 8);
    REQUIRE(m.level_sizes().size() >= 3);  // smoothers, transfers and the coarse solve all take part
    for (unsigned seed = 0; seed < 4; ++seed) {
      const auto x = random_vector(a.rows, 2 * seed), y = random_vector(a.rows, 2 * seed + 1);
      const auto mx = apply(m, exec, x), my = apply(m, exec, y);
      const double xmy = host_dot(x, my), ymx = host_dot(y, mx);
      CHECK(std::abs(xmy - ymx) <= 1e-12 * std::sqrt(host_dot(x, mx) * host_dot(y, my)));
      CHECK(host_dot(x, mx) > 0);
    }
  }
}

TEST_CASE("AMG-PCG reaches the Jacobi-PCG solution in fewer iterations", "[amg]") {
  const Executor exec = Executor::cpu();
  for (bool singular : {true, false}) {
    const CsrMatrix a = singular ? box_poisson("prism", 12) : definite(box_poisson("prism", 12));
    auto b = random_vector(a.rows, 11);
    if (singular) remove_mean(b);
    std::vector<double> x_amg, x_jacobi;
    const PcgResult amg = solve(a, Amg(exec, a, {}, 8), b, x_amg, singular);
    const PcgResult jacobi = solve(a, Jacobi(exec, a), b, x_jacobi, singular);
    REQUIRE(amg.converged);
    REQUIRE(jacobi.converged);
    CHECK(amg.iterations * 4 < jacobi.iterations);
    double scale = 0, difference = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      scale = std::max(scale, std::abs(x_jacobi[i]));
      difference = std::max(difference, std::abs(x_amg[i] - x_jacobi[i]));
    }
    CHECK(difference <= 1e-7 * scale);
  }
}

TEST_CASE("A float-stored level matrix multiplies like the double one to float precision", "[amg]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = box_poisson("prism", 6);
  const std::vector<double> d = positive_diagonal(a, "test");
  const CsrMatrix p = amg::tentative_prolongation(amg::aggregate(amg::filtered_matrix(a, d, 0.08), d));
  for (const CsrMatrix* m : {&a, &p}) {
    const SellMatrix sell = to_sell(*m, 8);
    const amg::LevelMatrix in_double(exec, sell, false), in_float(exec, sell, true);
    const Vector x = Vector::from_host(exec, random_vector(m->cols, 4));
    Vector y_double(exec, m->rows), y_float(exec, m->rows);
    exec.counters().reset();
    in_double.multiply(x, y_double);
    const double double_bytes = exec.counters().tally(KernelKind::spmv).bytes;
    in_float.multiply(x, y_float);
    CHECK(exec.counters().tally(KernelKind::spmv).calls == 2);
    CHECK(exec.counters().tally(KernelKind::spmv).bytes - double_bytes == Approx(double_bytes - 4.0 * sell.stored_entries()));
    const auto yd = y_double.to_host(), yf = y_float.to_host();
    for (index_t i = 0; i < m->rows; ++i) CHECK(yf[i] == Approx(yd[i]).margin(1e-6 * (1 + std::abs(yd[i]))));
  }
}

TEST_CASE("Float values narrowed on the executor are the host's conversion, bit for bit", "[amg]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = box_poisson("prism", 6);
  const index_t h = 8;
  const SellMatrix sell = to_sell(a, h);
  const DeviceSellFloat from_host(exec, sell);
  const DeviceSell solver_matrix(exec, a, h);
  // Narrowed taking a matrix's structure, and reading the solver matrix's in place.
  const DeviceSellFloat taking{DeviceSell(exec, a, h)}, sharing = DeviceSellFloat::sharing_structure(solver_matrix);
  CHECK(sharing.view().col == solver_matrix.view().col);
  CHECK(sharing.view().slice_ptr == solver_matrix.view().slice_ptr);
  const SellFloatView x = from_host.view();
  for (const DeviceSellFloat* narrowed : {&taking, &sharing}) {
    const SellFloatView y = narrowed->view();
    REQUIRE(y.rows == x.rows);
    REQUIRE(y.slice_count == x.slice_count);
    REQUIRE(narrowed->stored_entries() == from_host.stored_entries());
    CHECK(std::equal(x.slice_ptr, x.slice_ptr + x.slice_count + 1, y.slice_ptr));
    CHECK(std::equal(x.col, x.col + from_host.stored_entries(), y.col));
    bool same_bits = true;
    for (index_t k = 0; k < from_host.stored_entries(); ++k)
      same_bits = same_bits && std::bit_cast<std::uint32_t>(x.val[k]) == std::bit_cast<std::uint32_t>(y.val[k]);
    CHECK(same_bits);
  }
}

TEST_CASE("AMG's finest float level narrowed from the solver's matrix applies as one uploaded from the host",
          "[amg]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = box_poisson("tet", 8);
  const index_t h = 8;
  const DeviceSell solver_matrix(exec, a, h);
  const amg::AmgOptions options{.float_storage = true};
  const Amg shared(exec, a, options, h, &solver_matrix), uploaded(exec, a, options, h);
  const Vector r = Vector::from_host(exec, random_vector(a.rows, 31));
  Vector z_shared(exec, a.rows), z_uploaded(exec, a.rows);
  shared.apply(r, z_shared);
  uploaded.apply(r, z_uploaded);
  CHECK(z_shared.to_host() == z_uploaded.to_host());
}

TEST_CASE("AMG with float matrices stays symmetric and converges like double", "[amg]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = box_poisson("tet", 10);
  const Amg in_float(exec, a, {.float_storage = true}, 8);
  REQUIRE(in_float.float_storage());
  auto x = random_vector(a.rows, 21), y = random_vector(a.rows, 22);
  remove_mean(x);
  remove_mean(y);
  const auto mx = apply(in_float, exec, x), my = apply(in_float, exec, y);
  CHECK(std::abs(host_dot(x, my) - host_dot(y, mx)) <= 1e-12 * std::sqrt(host_dot(x, mx) * host_dot(y, my)));
  CHECK(host_dot(x, mx) > 0);
  std::vector<double> x_float, x_double;
  const PcgResult f = solve(a, in_float, x, x_float, true);
  const PcgResult d = solve(a, Amg(exec, a, {.float_storage = false}, 8), x, x_double, true);
  REQUIRE(f.converged);
  CHECK(f.iterations <= d.iterations + 1);
}

// A CI-sized mesh sequence per cell type: the iterations to 1e-10 stay under a bound and grow by at
// most a few from the coarsest mesh to one with 8 times as many cells (Jacobi's double).
TEST_CASE("AMG-PCG iterations stay bounded over mesh sequences", "[amg]") {
  const Executor exec = Executor::cpu();
  for (const char* cells : {"hex", "tet", "prism"}) {
    std::vector<int> iterations;
    for (index_t n : {8, 16}) {
      const CsrMatrix a = box_poisson(cells, n);
      auto b = random_vector(a.rows, 5);
      remove_mean(b);
      std::vector<double> x;
      const PcgResult r = solve(a, Amg(exec, a, {}, 8), b, x, true);
      REQUIRE(r.converged);
      iterations.push_back(r.iterations);
    }
    INFO(cells << ": " << iterations[0] << " then " << iterations[1] << " iterations");
    CHECK(iterations[1] <= 25);
    CHECK(iterations[1] <= iterations[0] + 4);
  }
}

// A rank's preconditioned block (block_of_owned_rows): owned rows, then halo rows that are identity
// rows, whose entries of r the distributed PCG never sets. What they hold must not reach the owned rows.
TEST_CASE("AMG keeps a rank's owned rows apart from its halo rows", "[amg]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix whole = box_poisson("tet", 5);  // 750 rows
  const index_t owned = 500;
  for (const index_t coarse_rows : {1000, 60}) {  // a dense inverse alone, and a hierarchy
    const CsrMatrix block = block_of_owned_rows(whole, owned);
    const Amg m(exec, block, {.coarse_rows = coarse_rows}, 8);
    auto r = random_vector(block.rows, 9);
    std::fill(r.begin() + owned, r.end(), 0.0);
    const auto clean = apply(m, exec, r);
    std::fill(r.begin() + owned, r.end(), std::numeric_limits<double>::quiet_NaN());
    const auto dirty = apply(m, exec, r);
    for (index_t i = 0; i < owned; ++i) REQUIRE(dirty[i] == clean[i]);
  }
}

TEST_CASE("AMG refuses a non-positive diagonal and a disconnected mesh", "[amg]") {
  const Executor exec = Executor::cpu();
  CsrMatrix a = box_poisson("hex", 4);
  for (index_t k = a.row_ptr[5]; k < a.row_ptr[6]; ++k)
    if (a.col[k] == 5) a.val[k] = 0.0;
  CHECK_THROWS_WITH(Amg(exec, a), Catch::Contains("row 5 has diagonal 0"));
  // Two closed boxes side by side, with no link: two floating pieces.
  const CsrMatrix two = side_by_side(box_poisson("hex", 4));
  CHECK_THROWS_WITH(Amg(exec, two), Catch::Contains("2 disconnected pieces") && Catch::Contains("not connected"));
  CHECK_NOTHROW(Amg(exec, definite(two)));  // one piece fixed: the constants of the other are the null space
  // A positive diagonal but an indefinite matrix (eigenvalues −1 and 3).
  const CsrMatrix indefinite = csr_from_triplets(2, 2, {{0, 0, 1.0}, {0, 1, 2.0}, {1, 0, 2.0}, {1, 1, 1.0}});
  CHECK_THROWS_WITH(Amg(exec, indefinite), Catch::Contains("not positive semi-definite"));
}

TEST_CASE("The AMG apply is made of counted front-end kernels", "[amg]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = box_poisson("hex", 12);
  for (int degree : {1, 2, 3}) {
    const Amg m(exec, a, {.smoother_degree = degree}, 8);
    const auto levels = static_cast<std::uint64_t>(m.level_sizes().size());
    exec.counters().reset();
    apply(m, exec, random_vector(a.rows, 1));
    // Per level above the coarsest: smoothing from zero degree − 1 SpMVs, then from the iterate
    // degree; the residual, R and P; the coarsest: one SpMV with the dense inverse.
    const auto per_level = static_cast<std::uint64_t>(2 * degree + 2);
    CHECK(exec.counters().tally(KernelKind::spmv).calls == per_level * (levels - 1) + 1);
  }
  CHECK(exec.counters().tally(KernelKind::spmv).bytes > 0);
  CHECK(exec.counters().tally(KernelKind::axpy).calls > 0);
}

// Bytes the counters add for one SpMV with m in sELL (docs/cost-model.md): 12 per stored entry with
// double values, 8 with float ones, the slice pointers, 8 per entry of x and of y.
double sell_spmv_bytes(const CsrMatrix& m, index_t slice_height, bool float_values) {
  const SellMatrix sell = to_sell(m, slice_height);
  return (float_values ? 8.0 : 12.0) * sell.stored_entries() + 4.0 * (sell.slice_count() + 1) +
         8.0 * (m.cols + m.rows);
}

TEST_CASE("Each level's kernel calls, made in order with the coarser levels' in their place, are the V-cycle",
          "[amg]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = box_poisson("hex", 12);
  const index_t slice_height = 8;
  const bool float_storage = GENERATE(false, true);
  for (int degree : {1, 2, 3}) {
    INFO("smoother degree " << degree << (float_storage ? ", float matrices" : ", double matrices"));
    const amg::AmgOptions options{.smoother_degree = degree, .coarse_rows = 50, .float_storage = float_storage};
    const amg::HostHierarchy h = amg::build_hierarchy(a, options);
    const Amg m(exec, h, options, slice_height);
    const std::size_t levels = m.level_sizes().size();
    REQUIRE(levels >= 3);
    const Vector r = Vector::from_host(exec, random_vector(a.rows, 5));
    Vector z(exec, a.rows);
    exec.counters().reset();
    m.apply(r, z);
    const KernelCounters cycle = exec.counters();
    const std::vector<double> expected = z.to_host();

    std::vector<Amg::LevelCalls> calls;
    for (std::size_t l = 0; l < levels; ++l) calls.push_back(m.level_calls(l, r, z));
    CHECK_THROWS_WITH(m.level_calls(levels, r, z), Catch::Contains("level"));
    const std::function<void(std::size_t)> run = [&](std::size_t l) {
      for (std::size_t i = 0; i <= calls[l].calls.size(); ++i) {
        if (i == calls[l].coarser_at && l + 1 < levels) run(l + 1);
        if (i < calls[l].calls.size()) calls[l].calls[i].run();
      }
    };
    fill(exec, 0.0, z);
    exec.counters().reset();
    run(0);
    CHECK(z.to_host() == expected);  // the same kernels on the same operands, bitwise
    for (int k = 0; k < kernel_kind_count; ++k) {
      CHECK(exec.counters().tally(KernelKind(k)).calls == cycle.tally(KernelKind(k)).calls);
      CHECK(exec.counters().tally(KernelKind(k)).bytes == cycle.tally(KernelKind(k)).bytes);
    }

    // Per call: one kernel, whose counted bytes are those of its matrix and vectors.
    for (std::size_t l = 0; l < levels; ++l) {
      const bool coarsest = l + 1 == levels;
      // Degree 1: smoothing from zero, the residual with A, R, the correction with P, one Jacobi pass.
      // Degree d > 1: smoothing from zero (2 + 4 (d − 1) calls), residual, R, P, the copy of the
      // corrected iterate and smoothing from it (3 + 4 (d − 1)).
      const auto per_level = static_cast<std::size_t>(degree == 1 ? 5 : 8 * degree + 1);
      CHECK(calls[l].calls.size() == (coarsest ? 1 : per_level));
      for (const Amg::KernelCall& call : calls[l].calls) {
        INFO("level " << l << ": " << call.kernel << " " << call.operation);
        const KernelCounters before = exec.counters();
        call.run();
        const KernelCounters one = exec.counters().since(before);
        CHECK(one.total().calls == 1);
        double bytes = 24.0 * call.rows;  // pointwise, axpby: two vectors read, one written
        if (call.kernel == "copy") bytes = 16.0 * call.rows;
        if (call.kernel.starts_with("spmv") || call.kernel == "jacobi_step") {
          const CsrMatrix* matrix = coarsest ? &h.coarse_inverse : &h.levels[l].a.host;
          if (call.operation.starts_with("b_c = R")) matrix = &h.levels[l].restriction.host;
          if (call.operation.starts_with("e = x + P")) matrix = &h.levels[l].prolongation.host;
          // The fused passes also read u (spmv_axpby), or b and ω D⁻¹ (jacobi_step; x's rows are x's).
          const double others = call.kernel == "spmv_axpby" ? 1 : call.kernel == "jacobi_step" ? 2 : 0;
          // A matrix of few, long rows in CSR: 12 bytes an entry and the row offsets.
          const bool csr = amg::kept_in_csr(matrix->rows, matrix->nnz());
          bytes = (csr ? 12.0 * matrix->nnz() + 4.0 * (matrix->rows + 1) + 8.0 * (matrix->cols + matrix->rows)
                       : sell_spmv_bytes(*matrix, slice_height, float_storage)) +
                  8.0 * others * matrix->rows;
          CHECK(call.rows == matrix->rows);
        }
        CHECK(one.total().bytes == bytes);
      }
    }
  }
}

TEST_CASE("AMG runs unchanged on the CUDA backend and matches the CPU", "[amg][cuda]") {
  if (cuda::device_count() == 0) {
    WARN("skipped: no CUDA device (or a build without CUDA)");
    return;
  }
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const CsrMatrix a = box_poisson("tet", 12);
  const Amg on_cpu(cpu, a, {}, cpu.default_slice_height()), on_gpu(gpu, a, {}, gpu.default_slice_height());
  auto b = random_vector(a.rows, 17);
  remove_mean(b);
  const auto z_cpu = apply(on_cpu, cpu, b), z_gpu = apply(on_gpu, gpu, b);
  const double scale = std::sqrt(host_dot(z_cpu, z_cpu) / static_cast<double>(z_cpu.size()));
  for (std::size_t i = 0; i < b.size(); ++i) CHECK(z_gpu[i] == Approx(z_cpu[i]).margin(1e-12 * scale));
  std::vector<double> x_cpu, x_gpu;
  const PcgResult r_cpu = solve(a, on_cpu, b, x_cpu, true, cpu), r_gpu = solve(a, on_gpu, b, x_gpu, true, gpu);
  REQUIRE(r_cpu.converged);
  REQUIRE(r_gpu.converged);
  CHECK(std::abs(r_gpu.iterations - r_cpu.iterations) <= 1);
  for (std::size_t i = 0; i < b.size(); ++i) CHECK(x_gpu[i] == Approx(x_cpu[i]).margin(1e-8));
}
