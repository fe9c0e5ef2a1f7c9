// The Poisson iterations timed whole: what the calibration measures per iteration is one iteration of
// each solver, by the counters' bytes.
#include <cmath>
#include <sstream>

#include <catch2/catch.hpp>

#include "miniapp/predict/iteration_calibration.hpp"
#include "miniapp/predict/stencil_matrix.hpp"
#include "operators/sparse/sell_matrix.hpp"

namespace miniapp::predict {
namespace {

TEST_CASE("The stencil matrices have the Laplacian's row lengths and are positive definite by dominance", "[predict]") {
  for (const int dimensions : {2, 3}) {
    const CsrMatrix a = stencil_matrix(4096, dimensions);
    CHECK(a.rows == 4096);
    for (index_t i = 0; i < a.rows; ++i) {
      double off = 0, diagonal = 0;
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) (a.col[k] == i ? diagonal : off) += std::abs(a.val[k]);
      CHECK(a.row_ptr[i + 1] - a.row_ptr[i] <= 2 * dimensions + 1);
      CHECK(diagonal == 2.0 * dimensions);
      CHECK(off <= diagonal);
    }
    CHECK(a.nnz() > (2 * dimensions + 1) * a.rows * 9 / 10);  // mostly full rows
  }
}

TEST_CASE("The face matrix interpolates one velocity component to each face of the stencil's grid", "[predict]") {
  const CsrMatrix cells = stencil_matrix(4096);
  const CsrMatrix f = face_matrix(4096);
  CHECK(f.cols == 3 * cells.rows);  // three interleaved components
  CHECK(f.rows == (cells.nnz() - cells.rows) / 2);  // a face per pair of neighbours in the stencil
  for (index_t r = 0; r < f.rows; ++r) {
    REQUIRE(f.row_ptr[r + 1] - f.row_ptr[r] == 2);
    const index_t a = f.col[f.row_ptr[r]], b = f.col[f.row_ptr[r] + 1];
    CHECK(a % 3 == b % 3);  // both cells' same component
    CHECK(f.val[f.row_ptr[r]] == 0.5);
    CHECK(f.val[f.row_ptr[r] + 1] == 0.5);
    // The two cells are stencil neighbours.
    const index_t i = a / 3, j = b / 3;
    bool neighbours = false;
    for (index_t k = cells.row_ptr[i]; k < cells.row_ptr[i + 1]; ++k) neighbours = neighbours || cells.col[k] == j;
    CHECK(neighbours);
  }
}

TEST_CASE("An iteration unit's point is one iteration of its solver, by the counters", "[predict]") {
  const Executor exec = Executor::cpu();
  IterationCalibrationSettings s;
  s.rows = {512, 4096};
  s.batched_systems = 8;  // planes of 64 rows at 512, of 512 at 4096
  s.repeat = 1;
  s.short_solve = 2;
  s.long_solve = 6;
  std::ostringstream log;
  const auto curves = calibrate_iterations(exec, s, log);
  for (const auto& curve : curves) {
    REQUIRE(curve);
    REQUIRE(curve->points().size() == 2);
    CHECK(curve->points()[1].bytes > 4 * curve->points()[0].bytes);  // 8 × the rows
    for (const CostPoint& p : curve->points()) CHECK(p.seconds > 0);
  }
  // Fused PCG with Jacobi (solvers/pcg.cpp): SpMV with pᵀq 12 E + 4 (S + 1) + 16 n, update with the
  // Jacobi apply 64 n, direction 24 n.
  const auto& jacobi = *curves[static_cast<int>(IterationUnit::pcg_jacobi)];
  for (std::size_t i = 0; i < 2; ++i) {
    const SellMatrix sell = to_sell(stencil_matrix(s.rows[i]), exec.default_slice_height());
    CHECK(jacobi.points()[i].bytes ==
          Approx(12.0 * sell.stored_entries() + 4.0 * (sell.slice_count() + 1) + 104.0 * sell.rows).epsilon(1e-12));
  }
  // AIP-1 adds its two triangular SpMVs: more bytes than Jacobi's one vector.
  const auto& aip = *curves[static_cast<int>(IterationUnit::pcg_aip1)];
  CHECK(aip.points()[1].bytes > jacobi.points()[1].bytes + 12.0 * 4096);
  // Calls per iteration: the same kernels at every size; AMG adds its V-cycle's (at least one level
  // above the coarse inverse: 4 SpMVs, 6 vector kernels, the coarse SpMV).
  for (const auto& curve : curves) CHECK(curve->points()[0].calls >= 1);
  CHECK(jacobi.points()[0].calls == jacobi.points()[1].calls);
  CHECK(aip.points()[0].calls == aip.points()[1].calls);
  const auto& amg = *curves[static_cast<int>(IterationUnit::pcg_amg)];
  for (std::size_t i = 0; i < 2; ++i) CHECK(amg.points()[i].calls > jacobi.points()[i].calls + 4);
  CHECK_THAT(log.str(), Catch::Contains("about 4096 rows"));
}

TEST_CASE("The batched widths are timed on each plane from one system to all of them and with an AMG block", "[predict]") {
  const Executor exec = Executor::cpu();
  IterationCalibrationSettings s;
  s.width_planes = {256, 1024};
  s.batched_systems = 8;
  s.repeat = 1;
  s.short_solve = 2;
  s.long_solve = 6;
  std::ostringstream log;
  const BatchedCosts costs = calibrate_batched_costs(exec, s, log);
  const std::vector<WidthPoint>& points = costs.widths;
  REQUIRE(points.size() == 8);  // 1, 2, 4 and 8 systems on each plane
  for (std::size_t i = 0; i < points.size(); ++i) {
    const WidthPoint& p = points[i];
    CHECK(p.rows == (i < 4 ? 256 : 1024));
    CHECK(p.systems == static_cast<double>(1 << (i % 4)));
    CHECK(p.cost > 0);
    CHECK(std::isfinite(p.cost));
    if (p.systems == 8) CHECK(p.cost == 1);  // the whole batch, against itself
  }
  // One AMG block per plane: the preconditioner's default block of 4 of the 8 systems.
  REQUIRE(costs.amg_blocks.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(costs.amg_blocks[i].rows == (i == 0 ? 256 : 1024));
    CHECK(costs.amg_blocks[i].systems == 4);
    CHECK(costs.amg_blocks[i].cost > 0);
    CHECK(std::isfinite(costs.amg_blocks[i].cost));
  }
  CHECK_THAT(log.str(), Catch::Contains("planes of about 1024 rows"));
}

}  // namespace
}  // namespace miniapp::predict
