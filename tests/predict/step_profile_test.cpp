// Kernel counts of each shipped case as the model takes them: the counted load of every phase must
// reproduce the counters of a further step (calls exactly), and a quick real calibration must predict the measured
// step to within a loose factor (timing on shared CI cores).
#include <catch2/catch.hpp>

#include <sstream>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/predict/kernel_calibration.hpp"
#include "miniapp/predict/prediction.hpp"

namespace miniapp::predict {
namespace {

run::Simulation small_case(const std::string& name, std::vector<std::string> overrides = {}) {
  const std::string path = cases::case_path(name);
  const auto config = cases::load_case(path);
  overrides.push_back(config.mesh.cells[2] == 1 ? "mesh.cells=[8,8,1]" : "mesh.cells=[6,6,6]");
  // On the FFT path a leading (AIP or AMG) block can stop before the Jacobi ones, so the kernels per
  // iteration would vary within a solve, which the counted split cannot reproduce exactly: Jacobi on
  // every frequency there (and no timed choice).
  if (config.numerics.poisson == cases::PoissonSolver::fft) overrides.push_back("numerics.fft_low_frequency_blocks=0");
  std::ostringstream log;
  return run::set_up_simulation(cases::load_case(path, overrides), path, log);
}

TEST_CASE("Counted kernel loads reproduce the counters of a step of every shipped case", "[predict][kernels]") {
  for (const std::string& case_name : cases::list_cases()) {
    INFO("case " << case_name);
    run::Simulation sim = small_case(case_name);
    const StepCounts counts = count_step(sim, 3);
    REQUIRE(counts.iterations > 0);
    const time::StepReport r = sim.scheme->advance(*sim.fields);
    const double it = r.poisson.iterations;
    for (int p = 0; p < time::phase_count; ++p) {
      const PhaseLoad load = counts.load(static_cast<time::Phase>(p), it);
      for (int k = 0; k < kernel_kind_count; ++k) {
        INFO("phase " << name(static_cast<time::Phase>(p)) << ", kernel " << name(static_cast<KernelKind>(k)));
        const KernelTally& t = r.kernels[p].tally(static_cast<KernelKind>(k));
        CHECK(load[k].calls == Approx(static_cast<double>(t.calls)).margin(1e-9));
        // Bytes and flops depend a little on the data: an AXPY with a zero coefficient (the mean
        // removal of an already zero-mean vector) skips an input; the FFT path's batched PCG works on
        // the range of frequency systems not yet converged, which differs from step to step, so its
        // bytes per iteration are a mean, not a constant. Calls do not depend on the data.
        const bool batched = p == static_cast<int>(time::Phase::poisson_solve) &&
                             sim.config.numerics.poisson == cases::PoissonSolver::fft;
        const double tolerance = batched ? 0.05 : 0.01;
        CHECK(load[k].bytes == Approx(t.bytes).epsilon(tolerance).margin(1e-6));
        CHECK(load[k].flops == Approx(t.flops).epsilon(tolerance).margin(1e-6));
      }
      // The phase's SpMVs by form: the calls of each form a step makes (outside the iterations).
      if (p == static_cast<int>(time::Phase::poisson_solve)) continue;
      for (int f = 0; f < spmv_form_count; ++f) {
        INFO("phase " << name(static_cast<time::Phase>(p)) << ", SpMV form " << name(static_cast<SpmvForm>(f)));
        CHECK(counts.fixed_spmv[p][f].calls ==
              Approx(static_cast<double>(r.kernels[p].spmv_tally(static_cast<SpmvForm>(f)).calls)).margin(1e-9));
      }
    }
    // The momentum predictor reads the three velocity components through one pass of a matrix.
    CHECK(counts.fixed_spmv[static_cast<int>(time::Phase::predictor)][static_cast<int>(SpmvForm::sell_vectors)].calls > 0);
  }
}

TEST_CASE("A quick calibration predicts a measured cavity step to within a factor of three", "[predict]") {
  run::Simulation sim = small_case("cavity");
  CalibrationSettings settings;
  settings.vector_sizes = {256, 2048, 16384};
  settings.spmv_rows = {256, 2048, 16384};
  settings.iteration_rows = {256, 1024, 4096, 8192};  // sizes of their own
  settings.width_planes = {256};
  settings.repeat = 5;
  settings.flush_bytes = 8e6;
  settings.warm_flush_bytes = 2e6;
  std::ostringstream log;
  const Calibration c = calibrate(sim.exec, settings, 10.0, log);
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l) CHECK(c.curves[v][l].points().size() == 3);
  const StepCounts counts = count_step(sim, 2);
  const StepMeasurement m = measure_steps(sim, 5);
  REQUIRE(m.step_seconds > 0);
  for (int p = 0; p < time::phase_count; ++p) {
    const auto phase = static_cast<time::Phase>(p);
    // Every phase of the cavity but the eddy viscosity (no LES) ran and was timed.
    CHECK((m.phase_seconds(phase) > 0) == (phase != time::Phase::eddy_viscosity));
  }
  for (const auto& unit : c.iteration_curves) CHECK((unit && unit->points().size() == settings.iteration_rows.size()));
  // Measured from the warm footprint in doubling steps, closed at 0 by the streaming one.
  REQUIRE(c.cache_retention.size() >= 2);
  CHECK(c.cache_retention.front().bytes == c.warm_footprint);
  CHECK(c.cache_retention.back().bytes == c.streaming_footprint);
  CHECK(c.cache_retention.back().kept == 0);
  for (const RetentionPoint& p : c.cache_retention) CHECK((p.kept >= 0 && p.kept <= 1));
  CHECK(c.retained_cache_bytes() < c.streaming_footprint);
  CHECK(c.pointwise_flops_per_second > 1e8);  // a WALE cell is 100 flops: beyond 10⁶ cells per second
  // The cavity's preconditioner, AIP-1, as the product on its one-layer mesh (solvers/aip.hpp).
  REQUIRE(sim.aip_form == AipForm::product);
  CHECK(counts.iteration_unit == IterationUnit::pcg_aip1_product);
  const StepPrediction s = predict_step(counts, c, m.iterations, static_cast<double>(sim.exec.bytes_allocated()), 1);
  CHECK(s.iteration_unit == counts.iteration_unit);  // the CPU's unit, timed launched as the cavity runs
  CHECK(s.seconds > m.step_seconds / 3);
  CHECK(s.seconds < m.step_seconds * 3);
}

}  // namespace
}  // namespace miniapp::predict
