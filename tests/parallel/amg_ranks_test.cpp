// The AMG hierarchy coupled across ranks (solvers/amg/rank_*): PCG iterations on P ranks against one
// rank, the single-rank solution, and the cycle's symmetry with distributed dots, with no level, some
// levels or every level but the finest gathered redundantly onto every rank.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "mesh/generators.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/distributed_pcg.hpp"
#include "tests/operators/matrix_generators.hpp"
#include "tests/parallel/parallel_test_support.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

namespace {

mesh::Mesh closed_box(const std::string& kind) {
  return kind == "hex" ? mesh::make_hex_box({.cells = {16, 16, 16}, .stretch = {1.5, 0, 0}})
                       : mesh::make_tet_box({.cells = {9, 8, 8}});
}

// A right-hand side of zero mean, the same on every rank.
std::vector<double> zero_mean_rhs(index_t n) {
  auto b = test::random_vector(n, 17);
  double mean = 0;
  for (double v : b) mean += v / n;
  for (double& v : b) v -= mean;
  return b;
}

// The AMG of several ranks on this rank's share of `a` (the whole matrix, the same on every rank).
struct RankAmg {
  RankAmg(const Communicator& comm, const Executor& exec, const mesh::Mesh& m, const CsrMatrix& a,
          const amg::AmgOptions& options)
      : numbering(build_local_numbering(cell_graph(m), partition_cells(comm, cell_graph(m)), comm.rank())),
        domain(comm, exec, numbering),
        amg(exec, domain, amg::build_rank_hierarchy(comm, numbering, local_rows(a, numbering), options), options, 4,
            HaloTransport::mpi) {}
  LocalNumbering numbering;
  Subdomain domain;
  Amg amg;
};

// Which levels are gathered onto every rank: the coarsest alone, those from the third down (the first
// two split over the ranks), or every level but the finest.
enum class Gathered { coarsest, from_third, all_but_finest };

// Options with several levels (coarse_rows 20) that gather `g` on m's matrix a: the threshold for
// from_third lies between the second and third levels' rows of a's single-rank hierarchy (the levels
// of several ranks aggregate a little differently, so not at either).
amg::AmgOptions options_gathering(Gathered g, const CsrMatrix& a) {
  amg::AmgOptions o{.coarse_rows = 20};
  if (g == Gathered::coarsest) o.redundant_rows = 0;
  if (g == Gathered::from_third) {
    const amg::HostHierarchy h = amg::build_hierarchy(a, o);
    REQUIRE(h.levels.size() >= 3);
    o.redundant_rows = static_cast<index_t>(std::sqrt(double(h.levels[1].rows()) * double(h.levels[2].rows())));
  }
  return o;
}

// The levels split over the ranks, from the level sizes: those above the first level below the finest
// with at most max(coarse_rows, redundant_rows) rows.
std::size_t split_levels(const std::vector<Amg::LevelSize>& sizes, const amg::AmgOptions& o) {
  std::size_t l = 1;
  while (l + 1 < sizes.size() && sizes[l].rows > std::max(o.coarse_rows, o.redundant_rows)) ++l;
  return l;
}

// Checks that `g` split as many levels as it should.
void check_split(Gathered g, const Amg& amg, const amg::AmgOptions& o) {
  const std::size_t levels = amg.level_sizes().size(), split = split_levels(amg.level_sizes(), o);
  REQUIRE(levels >= 4);
  CHECK(split == (g == Gathered::coarsest ? levels - 1 : g == Gathered::from_third ? 2 : 1));
  CHECK(amg.split_levels() == split);
}

}  // namespace

TEST_CASE("AMG across ranks: the single-rank solution in at most 10 % more iterations", "[mpi][amg]") {
  const std::string kind = GENERATE("hex", "tet");
  const Gathered gathered = GENERATE(Gathered::coarsest, Gathered::from_third, Gathered::all_but_finest);
  CAPTURE(kind, static_cast<int>(gathered));
  const Communicator comm;
  if (comm.size() == 1) return;  // one rank builds the single-rank hierarchy (tests/solvers/amg_test.cpp)
  const Executor exec = Executor::cpu();
  const mesh::Mesh m = closed_box(kind);
  const CsrMatrix a = test::minus_laplacian(m);
  const amg::AmgOptions options = options_gathering(gathered, a);
  PcgOptions pcg;
  pcg.tolerance = 1e-8;
  pcg.singular = true;
  const auto b = zero_mean_rhs(a.rows);

  Pcg serial(exec, a.rows);
  const Amg one_rank(exec, a, options, 4);
  Vector x_ref(exec, a.rows);
  fill(exec, 0.0, x_ref);
  const PcgResult expected = serial.solve(DeviceSell(exec, to_sell(a, 4)), one_rank, Vector::from_host(exec, b), x_ref,
                                          pcg);
  REQUIRE(expected.converged);

  RankAmg ranks(comm, exec, m, a, options);
  check_split(gathered, ranks.amg, options);
  const OverlappedOperator op(exec, test::local_square(a, ranks.numbering), ranks.domain, 4);
  DistributedPcg pcg_ranks(exec, ranks.domain);
  Vector x(exec, ranks.numbering.local_count());
  fill(exec, 0.0, x);
  const PcgResult got = pcg_ranks.solve(op, ranks.amg, Vector::from_host(exec, local_values(b, ranks.numbering)), x, pcg);
  INFO(comm.size() << " ranks: " << got.iterations << " iterations, one rank " << expected.iterations);
  REQUIRE(got.converged);
  CHECK(got.iterations <= 1.1 * expected.iterations);
  const auto reference = x_ref.to_host(), solution = x.to_host();
  double scale = 0;
  for (double v : reference) scale = std::max(scale, std::abs(v));
  for (index_t l = 0; l < ranks.numbering.owned_count(); ++l)
    CHECK(solution[l] == Approx(reference[ranks.numbering.local_to_global[l]]).margin(1e-6 * scale));
}

TEST_CASE("AMG across ranks is symmetric and positive definite with distributed dots", "[mpi][amg]") {
  const std::string kind = GENERATE("hex", "tet");
  const bool float_storage = GENERATE(false, true);
  const Gathered gathered = GENERATE(Gathered::coarsest, Gathered::from_third, Gathered::all_but_finest);
  CAPTURE(kind, float_storage, static_cast<int>(gathered));
  const Communicator comm;
  if (comm.size() == 1) return;
  const Executor exec = Executor::cpu();
  const mesh::Mesh m = closed_box(kind);
  CsrMatrix a = test::minus_laplacian(m);
  a.val[a.row_ptr[0]] += 1.0;  // a shift on row 0's first entry: symmetric positive definite
  REQUIRE(a.col[a.row_ptr[0]] == 0);
  amg::AmgOptions options = options_gathering(gathered, a);
  options.float_storage = float_storage;
  RankAmg ranks(comm, exec, m, a, options);
  check_split(gathered, ranks.amg, options);
  const index_t n = ranks.numbering.local_count();
  for (unsigned seed = 0; seed < 3; ++seed) {
    const auto x_whole = test::random_vector(a.rows, 2 * seed), y_whole = test::random_vector(a.rows, 2 * seed + 1);
    const Vector x = Vector::from_host(exec, local_values(x_whole, ranks.numbering));
    const Vector y = Vector::from_host(exec, local_values(y_whole, ranks.numbering));
    Vector mx(exec, n), my(exec, n);
    ranks.amg.apply(x, mx);
    ranks.amg.apply(y, my);
    const double xmy = ranks.domain.dot(exec, x, my), ymx = ranks.domain.dot(exec, y, mx);
    const double xmx = ranks.domain.dot(exec, x, mx), ymy = ranks.domain.dot(exec, y, my);
    CHECK(std::abs(xmy - ymx) <= 1e-12 * std::sqrt(xmx * ymy));
    CHECK(xmx > 0);
  }
}

TEST_CASE("AMG across ranks allocates what Amg::device_bytes says with its gathered levels and halo exchanges",
          "[mpi][amg]") {
  const Communicator comm;
  if (comm.size() == 1) return;
  const Executor exec = Executor::cpu();
  const mesh::Mesh m = closed_box("tet");
  const CsrMatrix a = test::minus_laplacian(m);
  const LocalNumbering n = build_local_numbering(cell_graph(m), partition_cells(comm, cell_graph(m)), comm.rank());
  Subdomain domain(comm, exec, n);
  const amg::AmgOptions options = options_gathering(Gathered::from_third, a);
  const amg::RankHierarchy h = amg::build_rank_hierarchy(comm, n, local_rows(a, n), options);
  REQUIRE(h.levels.size() == 2);
  REQUIRE_FALSE(h.redundant.levels.empty());  // the gathered levels cycle on each rank
  const std::size_t before = exec.bytes_allocated();
  const Amg amg(exec, domain, h, options, 4, HaloTransport::mpi);
  const std::size_t allocated = exec.bytes_allocated() - before;
  CHECK(allocated == Amg::device_bytes(comm, h, 4, options));
  // A cycle allocates nothing more.
  const Vector r = Vector::from_host(exec, test::random_vector(n.local_count(), 7));
  Vector z(exec, n.local_count());
  amg.apply(r, z);
  CHECK(exec.bytes_allocated() - before - 2 * sizeof(double) * static_cast<std::size_t>(n.local_count()) == allocated);
}

namespace {

// Counts the halo updates a Subdomain reports.
struct UpdateCounter final : CommObserver {
  int updates = 0;
  void halo_started(const HaloPlan&, int, index_t) override { ++updates; }
  void halo_finished() override {}
  void reduced(int) override {}
};

}  // namespace

TEST_CASE("AMG across ranks: four halo updates per split level and cycle, seen by the finest level's observer",
          "[mpi][amg]") {
  const Gathered gathered = GENERATE(Gathered::coarsest, Gathered::from_third, Gathered::all_but_finest);
  CAPTURE(static_cast<int>(gathered));
  const Communicator comm;
  if (comm.size() == 1) return;
  const Executor exec = Executor::cpu();
  const mesh::Mesh m = closed_box("hex");
  const CsrMatrix a = test::minus_laplacian(m);
  const amg::AmgOptions options = options_gathering(gathered, a);
  RankAmg ranks(comm, exec, m, a, options);
  check_split(gathered, ranks.amg, options);
  UpdateCounter counter;
  ranks.domain.observe(&counter);
  const Vector r = Vector::from_host(exec, std::vector<double>(ranks.numbering.local_count(), 1.0));
  Vector z(exec, ranks.numbering.local_count());
  ranks.amg.apply(r, z);
  ranks.domain.observe(nullptr);
  // On each split level: x before each SpMV with A (two), the residual before R, the correction before
  // P; but the last split level's P reads the gathered levels' correction, whole, and the first
  // gathered level makes one all-gather; the levels below it none.
  CHECK(counter.updates == 4 * static_cast<int>(split_levels(ranks.amg.level_sizes(), options)));
}

TEST_CASE("AMG across ranks refuses a zero diagonal on every rank with one message", "[mpi][amg]") {
  const Communicator comm;
  const Executor exec = Executor::cpu();
  const mesh::Mesh m = closed_box("tet");
  CsrMatrix a = test::minus_laplacian(m);
  for (index_t k = a.row_ptr[7]; k < a.row_ptr[8]; ++k)
    if (a.col[k] == 7) a.val[k] = 0;
  const LocalNumbering n = build_local_numbering(cell_graph(m), partition_cells(comm, cell_graph(m)), comm.rank());
  CHECK_THROWS_AS(amg::build_rank_hierarchy(comm, n, local_rows(a, n), {}), CollectiveError);
  CHECK_THROWS_WITH(amg::build_rank_hierarchy(comm, n, local_rows(a, n), {}), Catch::Contains("has diagonal 0"));
}

TEST_CASE("AMG across ranks refuses two floating pieces, found on the gathered level, on every rank", "[mpi][amg]") {
  const Communicator comm;
  const Executor exec = Executor::cpu();
  const mesh::Mesh m = closed_box("hex");
  CsrMatrix a = test::minus_laplacian(m);
  // The links between the first half of the cells and the second dropped into the diagonals: rows
  // still sum to zero, so both halves float.
  const index_t half = a.rows / 2;
  for (index_t i = 0; i < a.rows; ++i) {
    index_t diagonal = -1;
    double dropped = 0;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (a.col[k] == i) diagonal = k;
      else if ((a.col[k] < half) != (i < half)) dropped += a.val[k], a.val[k] = 0;
    }
    a.val[diagonal] += dropped;
  }
  const LocalNumbering n = build_local_numbering(cell_graph(m), partition_cells(comm, cell_graph(m)), comm.rank());
  const amg::AmgOptions options{.coarse_rows = 20};
  CHECK_THROWS_WITH(amg::build_rank_hierarchy(comm, n, local_rows(a, n), options),
                    Catch::Contains("disconnected pieces"));
  CHECK_THROWS_WITH(amg::build_rank_hierarchy(comm, n, local_rows(a, n), {.redundant_rows = -1}),
                    Catch::Contains("redundant rows -1 must not be negative"));
}

TEST_CASE("AMG across ranks on a matrix small enough to gather: one exact solve", "[mpi][amg]") {
  const Communicator comm;
  if (comm.size() == 1) return;
  const Executor exec = Executor::cpu();
  const mesh::Mesh m = test::test_box("tet", false);  // 600 cells, walls all round
  const CsrMatrix a = test::minus_laplacian(m);
  // Double values: a pseudo-inverse rounded to float is no exact solve.
  RankAmg ranks(comm, exec, m, a, {.coarse_rows = 1000, .float_storage = false});
  REQUIRE(ranks.amg.level_sizes().size() == 1);
  PcgOptions pcg;
  pcg.tolerance = 1e-10;
  pcg.singular = true;
  const OverlappedOperator op(exec, test::local_square(a, ranks.numbering), ranks.domain, 4);
  DistributedPcg solver(exec, ranks.domain);
  Vector x(exec, ranks.numbering.local_count());
  fill(exec, 0.0, x);
  const auto b = zero_mean_rhs(a.rows);
  const PcgResult r = solver.solve(op, ranks.amg, Vector::from_host(exec, local_values(b, ranks.numbering)), x, pcg);
  CHECK(r.converged);
  CHECK(r.iterations == 1);  // M is A's pseudo-inverse
}
