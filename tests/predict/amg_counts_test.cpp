// The AMG Poisson iteration as the model takes it: its kernel counts follow from the hierarchy's level
// sizes (one V-cycle's SpMVs with A_l twice, R_l and P_l, three of them fused with the vector updates
// that follow them, and the coarse inverse), and predict prices it as the pcg_amg unit at those bytes
// and its own calls.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/predict/prediction.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/amg/level_matrix.hpp"
#include "solvers/identity.hpp"
#include "solvers/pcg.hpp"
#include "tests/predict/synthetic_calibration.hpp"

namespace miniapp::predict {
namespace {

// The bytes the SpMV front end counts for one vector (operators/kernels/spmv.cpp; with float values
// operators/kernels/aip_kernels.cpp).
double spmv_bytes(const CsrMatrix& m, index_t slice_height, bool float_values) {
  const SellMatrix s = to_sell(m, slice_height);
  return (float_values ? 8.0 : 12.0) * s.stored_entries() + 4.0 * (s.slice_count() + 1) +
         8.0 * (double(s.cols) + s.rows);
}

// The same for a matrix of the hierarchy: in CSR where few, long rows keep it there (amg::kept_in_csr).
double level_bytes(const CsrMatrix& m, index_t slice_height, bool float_values) {
  if (!amg::kept_in_csr(m.rows, m.nnz())) return spmv_bytes(m, slice_height, float_values);
  return 12.0 * m.nnz() + 4.0 * (m.rows + 1) + 8.0 * (double(m.cols) + m.rows);
}

// The SpMV bytes of one iteration of the pressure PCG itself (singular, as on a closed box), by the
// counters of two solves without a preconditioner.
double pcg_spmv_bytes(const Executor& exec, const CsrMatrix& a, index_t slice_height) {
  const DeviceSell sell(exec, to_sell(a, slice_height));
  const Identity none(exec, a.rows);
  std::vector<double> host_b(static_cast<std::size_t>(a.rows));
  for (std::size_t i = 0; i < host_b.size(); ++i) host_b[i] = static_cast<double>(i % 7) - 3.0;
  const Vector b = Vector::from_host(exec, host_b);
  Vector x(exec, a.rows);
  Pcg pcg(exec, a.rows);
  const auto counted = [&](int iterations) {
    fill(exec, 0.0, x);
    const KernelCounters before = exec.counters();
    pcg.solve(sell, none, b, x, {.tolerance = 0, .max_iterations = iterations, .singular = true});
    return exec.counters().since(before).tally(KernelKind::spmv).bytes;
  };
  return (counted(6) - counted(2)) / 4;
}

TEST_CASE("Predict's AMG iteration follows from the hierarchy's level sizes", "[predict][amg]") {
  const std::string path = cases::case_path("cavity-3d");
  std::ostringstream log;
  const std::vector<std::string> overrides{"mesh.cells=[20,20,20]", "numerics.preconditioner=\"amg\""};
  run::Simulation sim = run::set_up_simulation(cases::load_case(path, overrides), path, log);
  const StepCounts counts = count_step(sim, 3);
  REQUIRE(counts.iteration_unit == IterationUnit::pcg_amg);
  REQUIRE(counts.iterations > 3);

  // The same hierarchy as the case's (built from −L alone, the same on any thread count).
  CsrMatrix minus_laplacian = sim.host_operators.laplacian;
  for (double& v : minus_laplacian.val) v = -v;
  const amg::HostHierarchy h = amg::build_hierarchy(minus_laplacian, {});
  REQUIRE(h.levels.size() >= 2);
  const index_t slices = sim.exec.default_slice_height();
  const bool f = sim.config.numerics.amg_storage == cases::AmgStorage::float_values;
  double cycle_bytes = level_bytes(h.coarse_inverse, slices, f);
  // The fused SpMVs also read b (b − A x), x (x + P x_c), and b and ω D⁻¹ (the Jacobi step): 4 vectors.
  for (const amg::HostLevel& l : h.levels)
    cycle_bytes += 2 * level_bytes(l.a.host, slices, f) + level_bytes(l.restriction.host, slices, f) +
                   level_bytes(l.prolongation.host, slices, f) + 4 * 8.0 * l.rows();
  const double cycle_calls = 4.0 * static_cast<double>(h.levels.size()) + 1;

  // One V-cycle applied alone counts exactly those SpMVs.
  const Amg amg(sim.exec, h, {.float_storage = f}, slices);
  const Vector r = Vector::from_host(sim.exec, std::vector<double>(static_cast<std::size_t>(minus_laplacian.rows), 1.0));
  Vector z(sim.exec, minus_laplacian.rows);
  const KernelCounters before = sim.exec.counters();
  amg.apply(r, z);
  const KernelTally applied = sim.exec.counters().since(before).tally(KernelKind::spmv);
  CHECK(static_cast<double>(applied.calls) == cycle_calls);
  CHECK(applied.bytes == Approx(cycle_bytes).epsilon(1e-12));

  // Per PCG iteration: the cycle's SpMVs and the iteration's own with A.
  const KindLoad& spmv = counts.per_iteration[static_cast<int>(KernelKind::spmv)];
  CHECK(spmv.calls == Approx(cycle_calls + 1).epsilon(1e-9));
  CHECK(spmv.bytes == Approx(cycle_bytes + pcg_spmv_bytes(sim.exec, minus_laplacian, slices)).epsilon(1e-9));

  // Priced as the pcg_amg unit at the counted bytes and calls per iteration: the case's own launches,
  // not those of the unit's points at about its bytes.
  const Calibration c = test::with_iteration_curves(test::synthetic_calibration());
  const StepPrediction s = predict_step(counts, c, counts.iterations, 1e6, 1);
  REQUIRE(s.iteration_unit == IterationUnit::pcg_amg);
  double bytes = 0, calls = 0;
  for (const KindLoad& k : counts.per_iteration) bytes += k.bytes, calls += k.calls;
  CHECK(calls > cycle_calls + 1);  // the V-cycle's and the PCG's vector kernels too
  const test::LinearCost unit = test::iteration_cost(IterationUnit::pcg_amg);
  CHECK(s.iteration_seconds == Approx(unit.seconds(bytes, calls)).epsilon(1e-12));
}

}  // namespace
}  // namespace miniapp::predict
