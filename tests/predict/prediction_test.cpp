// The prediction on synthetic calibrations: a known linear cost per kernel must come out exactly.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/error.hpp"
#include "miniapp/predict/device_scaling.hpp"
#include "miniapp/predict/prediction.hpp"
#include "tests/predict/synthetic_calibration.hpp"

namespace miniapp::predict {
namespace {

using test::linear_cost;
using test::LinearCost;
using test::synthetic_calibration;

constexpr int solve = static_cast<int>(time::Phase::poisson_solve);

// A step with different loads in every phase and kind, and a per-iteration part.
StepCounts synthetic_counts() {
  StepCounts c;
  for (int p = 0; p < time::phase_count; ++p)
    for (int k = 0; k < kernel_kind_count; ++k) c.fixed[p][k] = {double(1 + p + k), 4e4 * (1 + p) * (1 + k), 1e3};
  for (int k = 0; k < kernel_kind_count; ++k) c.per_iteration[k] = {double(k % 3), 3e4 * (k % 3), 1e3};
  c.iterations = 7;
  return c;
}

// Σ over kinds of calls · (L + (bytes / calls / devices) / B) by the closed form.
double expected_seconds(const PhaseLoad& load, CacheLevel level, int devices) {
  double t = 0;
  for (int k = 0; k < kernel_kind_count; ++k) {
    if (load[k].calls == 0) continue;
    const LinearCost cost = linear_cost(priced_variant(static_cast<KernelKind>(k)), level);
    t += load[k].calls * cost.latency + load[k].bytes / devices / cost.bandwidth;
  }
  return t;
}

TEST_CASE("Predicted step time equals the linear cost of the counted calls", "[predict]") {
  const Calibration c = synthetic_calibration(1e9);  // everything fits: hot curves
  const StepCounts counts = synthetic_counts();
  const double it = 12;
  const StepPrediction s = predict_step(counts, c, it, 5e8, 1);
  CHECK(s.cache == CacheLevel::hot);
  double explicit_part = 0;
  for (int p = 0; p < time::phase_count; ++p) {
    INFO("phase " << p);
    explicit_part += expected_seconds(counts.fixed[p], CacheLevel::hot, 1);
    CHECK(s.phases[p].seconds ==
          Approx(expected_seconds(counts.load(static_cast<time::Phase>(p), it), CacheLevel::hot, 1)).epsilon(1e-12));
  }
  const double iteration = expected_seconds(counts.per_iteration, CacheLevel::hot, 1);
  CHECK(s.explicit_seconds == Approx(explicit_part).epsilon(1e-12));
  CHECK(s.iteration_seconds == Approx(iteration).epsilon(1e-12));
  CHECK(s.seconds == Approx(explicit_part + it * iteration).epsilon(1e-12));
  double phases = 0;
  for (const auto& p : s.phases) phases += p.seconds;
  CHECK(phases == Approx(s.seconds).epsilon(1e-12));
}

TEST_CASE("Each host round trip adds the calibrated synchronisation cost", "[predict]") {
  // Known latency + bandwidth per curve and a 5 µs round trip: each counted host read of the fixed
  // part pays it; a Poisson iteration pays it once per check interval (here 8), its own DOT-class
  // calls (cg_rho) do not.
  const double sync = 5e-6, it = 12;
  const Calibration c = synthetic_calibration(1e9, sync);
  StepCounts counts = synthetic_counts();
  counts.iteration_host_reads = 1.0 / 8;
  for (int p = 0; p < time::phase_count; ++p) counts.fixed_host_reads[p] = 0.5 * p;
  const StepPrediction s = predict_step(counts, c, it, 5e8, 1);
  constexpr int dot_kind = static_cast<int>(KernelKind::dot);
  double fixed_dots = 0, explicit_part = 0;
  for (int p = 0; p < time::phase_count; ++p) {
    INFO("phase " << p);
    const double reads = counts.fixed_host_reads[p] + (p == solve ? it / 8 : 0.0);
    CHECK(s.phases[p].host_reads == Approx(reads).epsilon(1e-12));
    CHECK(s.phases[p].seconds ==
          Approx(expected_seconds(counts.load(static_cast<time::Phase>(p), it), CacheLevel::hot, 1) + reads * sync)
              .epsilon(1e-12));
    fixed_dots += counts.fixed_host_reads[p];
    explicit_part += expected_seconds(counts.fixed[p], CacheLevel::hot, 1);
  }
  REQUIRE(counts.per_iteration[dot_kind].calls > 0);  // iteration DOTs that must not pay the round trip
  const double iteration = expected_seconds(counts.per_iteration, CacheLevel::hot, 1) + sync / 8;
  CHECK(s.iteration_seconds == Approx(iteration).epsilon(1e-12));
  CHECK(s.explicit_seconds == Approx(explicit_part + fixed_dots * sync).epsilon(1e-12));
  CHECK(s.seconds == Approx(explicit_part + fixed_dots * sync + it * iteration).epsilon(1e-12));
  // The round trips are booked to the DOT column, so the columns still add up to the phase.
  for (const PhasePrediction& p : s.phases) {
    double columns = 0;
    for (const KernelCost& k : p.kinds) columns += k.seconds;
    CHECK(columns == Approx(p.seconds).epsilon(1e-12));
  }
  // Without a round trip (a synchronous backend) the same counts cost only their curves.
  const StepPrediction synchronous = predict_step(counts, synthetic_calibration(1e9), it, 5e8, 1);
  CHECK(s.seconds - synchronous.seconds == Approx((fixed_dots + it / 8) * sync).epsilon(1e-9));
}

// Σ over kinds of calls · (L + bytes / B) on the graph curves.
double expected_graph_seconds(const PhaseLoad& load, CacheLevel level) {
  double t = 0;
  for (int k = 0; k < kernel_kind_count; ++k) {
    const test::LinearCost cost = test::graph_cost(priced_variant(static_cast<KernelKind>(k)), level);
    t += load[k].calls * cost.latency + (load[k].calls > 0 ? load[k].bytes / cost.bandwidth : 0.0);
  }
  return t;
}

TEST_CASE("Poisson iterations replayed from graphs are priced by the graph curves, the rest not", "[predict]") {
  const Calibration c = test::with_graph_curves(synthetic_calibration(1e9));
  StepCounts counts = synthetic_counts();
  const double it = 12;
  const StepPrediction launched = predict_step(counts, c, it, 5e8, 1);
  CHECK_FALSE(launched.iteration_graph_curves);
  CHECK(launched.iteration_seconds == Approx(expected_seconds(counts.per_iteration, CacheLevel::hot, 1)).epsilon(1e-12));

  counts.iteration_graphs = true;
  const StepPrediction replayed = predict_step(counts, c, it, 5e8, 1);
  CHECK(replayed.iteration_graph_curves);
  const double iteration = expected_graph_seconds(counts.per_iteration, CacheLevel::hot);
  CHECK(replayed.iteration_seconds == Approx(iteration).epsilon(1e-12));
  CHECK(replayed.iteration_seconds < launched.iteration_seconds);
  CHECK(replayed.explicit_seconds == Approx(launched.explicit_seconds).epsilon(1e-12));  // sub-steps unchanged
  CHECK(replayed.seconds == Approx(launched.explicit_seconds + it * iteration).epsilon(1e-12));

  // A calibration without graph curves (CPU) prices them as launched calls.
  const StepPrediction no_graphs = predict_step(counts, synthetic_calibration(1e9), it, 5e8, 1);
  CHECK_FALSE(no_graphs.iteration_graph_curves);
  CHECK(no_graphs.seconds == Approx(launched.seconds).epsilon(1e-12));
}

TEST_CASE("Poisson iterations with a calibrated unit are priced as that unit, shared among the kinds", "[predict]") {
  const Calibration c = test::with_iteration_curves(test::with_graph_curves(synthetic_calibration(1e9, 5e-6)));
  StepCounts counts = synthetic_counts();
  counts.iteration_host_reads = 1.0 / 8;
  counts.iteration_unit = IterationUnit::pcg_aip1;
  const double it = 12;
  // Launched calls (graphs off) on a backend that records graphs: the unit, timed on replayed graphs,
  // does not apply.
  const StepPrediction launched = predict_step(counts, c, it, 5e8, 1);
  CHECK_FALSE(launched.iteration_unit);
  // A backend without graphs (CPU): its unit was timed launched, and applies.
  const StepPrediction cpu = predict_step(counts, test::with_iteration_curves(synthetic_calibration(1e9, 5e-6)), it, 5e8, 1);
  REQUIRE(cpu.iteration_unit == IterationUnit::pcg_aip1);

  counts.iteration_graphs = true;
  const StepPrediction graph = predict_step(counts, test::with_graph_curves(synthetic_calibration(1e9, 5e-6)), it, 5e8, 1);
  CHECK_FALSE(graph.iteration_unit);  // no iteration curves: the graph curves
  CHECK(iteration_pricing(graph) == "graph");

  const StepPrediction unit = predict_step(counts, c, it, 5e8, 1);
  REQUIRE(unit.iteration_unit == IterationUnit::pcg_aip1);
  CHECK(iteration_pricing(unit) == "unit pcg_aip1");
  double bytes = 0, calls = 0;
  for (const KindLoad& k : counts.per_iteration) bytes += k.bytes, calls += k.calls;
  // Linear unit curve, reproduced exactly at the load's own calls; the host reads are inside it (not
  // added again).
  CHECK(unit.iteration_seconds ==
        Approx(test::iteration_cost(IterationUnit::pcg_aip1).seconds(bytes, calls)).epsilon(1e-12));
  CHECK(unit.explicit_seconds == Approx(graph.explicit_seconds).epsilon(1e-12));
  CHECK(unit.seconds == Approx(unit.explicit_seconds + it * unit.iteration_seconds).epsilon(1e-12));
  // The breakdown adds up to the unit's time, in the graph curves' proportions.
  const PhasePrediction one = price_unit(counts.per_iteration, c, CacheLevel::hot, *c.iteration_curve(IterationUnit::pcg_aip1));
  const PhasePrediction by_kernels = price(counts.per_iteration, c, CacheLevel::hot, 0, true);
  double columns = 0;
  for (int k = 0; k < kernel_kind_count; ++k) {
    columns += one.kinds[k].seconds;
    CHECK(one.kinds[k].seconds * by_kernels.seconds == Approx(by_kernels.kinds[k].seconds * one.seconds).epsilon(1e-12));
  }
  CHECK(columns == Approx(one.seconds).epsilon(1e-12));
  // Another unit prices the same load by its own curve.
  counts.iteration_unit = IterationUnit::batched_pcg;
  CHECK(predict_step(counts, c, it, 5e8, 1).iteration_seconds ==
        Approx(test::iteration_cost(IterationUnit::batched_pcg).seconds(bytes, calls)).epsilon(1e-12));
}

TEST_CASE("Iterations launched past the stop are priced where the solver runs them whole", "[predict]") {
  const Calibration c = synthetic_calibration(1e9, 5e-6);
  StepCounts counts = synthetic_counts();
  const double it = 12;
  const StepPrediction done = predict_step(counts, c, it, 5e8, 1);
  CHECK(done.launched_iterations == it);
  counts.launched_per_iteration = 1.25;  // e.g. batches of 8 for 12.8 iterations done
  const StepPrediction launched = predict_step(counts, c, it, 5e8, 1);
  CHECK(launched.iterations == it);
  CHECK(launched.launched_iterations == Approx(15).epsilon(1e-12));
  CHECK(launched.iteration_seconds == Approx(done.iteration_seconds).epsilon(1e-12));
  CHECK(launched.explicit_seconds == Approx(done.explicit_seconds).epsilon(1e-12));
  CHECK(launched.seconds == Approx(done.explicit_seconds + 15 * done.iteration_seconds).epsilon(1e-12));
  const auto solve = static_cast<int>(time::Phase::poisson_solve);
  CHECK(launched.phases[solve].seconds - done.phases[solve].seconds == Approx(3 * done.iteration_seconds).epsilon(1e-9));
  CHECK(counts.load(time::Phase::poisson_solve, it)[0].calls ==
        Approx(counts.fixed[solve][0].calls + 15 * counts.per_iteration[0].calls).epsilon(1e-12));
}

TEST_CASE("The cost of a batched width is interpolated in log systems and log rows", "[predict]") {
  Calibration c = synthetic_calibration(1e9);
  CHECK(c.batched_width_cost(1000, 3) == 1);  // no points: every width costs the whole batch's
  c.batched_widths = {{1000, 1, 4.0}, {1000, 4, 2.0}, {1000, 64, 1.0}, {16000, 1, 6.0}, {16000, 64, 1.0}};
  CHECK(c.batched_width_cost(1000, 1) == 4.0);
  CHECK(c.batched_width_cost(1000, 2) == Approx(3.0).epsilon(1e-12));   // halfway in log systems
  CHECK(c.batched_width_cost(1000, 16) == Approx(1.5).epsilon(1e-12));  // 4 → 64 in log: halfway
  CHECK(c.batched_width_cost(1000, 128) == 1.0);  // beyond the widest: the whole batch's
  CHECK(c.batched_width_cost(16000, 8) == Approx(6.0 - 5.0 * 3 / 6).epsilon(1e-12));
  CHECK(c.batched_width_cost(4000, 1) == Approx(5.0).epsilon(1e-12));  // halfway in log rows
  CHECK(c.batched_width_cost(100, 1) == 4.0);                            // below the smallest plane
  CHECK(c.batched_width_cost(1e6, 1) == 6.0);                            // above the largest
  CHECK(c.batched_amg_cost(4000) == 1);  // no AMG points
  c.batched_amg_blocks = {{1000, 8, 2.0}, {16000, 8, 4.0}};
  CHECK(c.batched_amg_cost(4000) == Approx(3.0).epsilon(1e-12));
  CHECK(c.batched_amg_cost(500) == 2.0);
}

TEST_CASE("A unit prices each width of the batched iterations at its calibrated cost per byte", "[predict]") {
  Calibration c = test::with_iteration_curves(synthetic_calibration(1e9, 5e-6));  // a CPU's: no graphs
  StepCounts counts = synthetic_counts();
  counts.iteration_unit = IterationUnit::batched_pcg;
  double bytes = 0, calls = 0;
  for (const KindLoad& k : counts.per_iteration) bytes += k.bytes, calls += k.calls;
  const double it = 12;
  const CostCurve& unit = *c.iteration_curve(IterationUnit::batched_pcg);
  // The widest size (16 systems, 2.2 × the mean bytes) on the unit's curve, the others at its cost
  // per byte: without a width table the spread is linear in bytes.
  counts.iteration_spread = {{0.5, 0.2, 1, 1000}, {0.25, 1.4, 8, 1000}, {0.25, 2.2, 16, 1000}};  // mean ratio 1
  const double per_byte = unit.seconds(2.2 * bytes, calls) / (2.2 * bytes);
  const StepPrediction linear = predict_step(counts, c, it, 5e8, 1);
  CHECK(linear.iteration_sizes == 3);
  CHECK(linear.iteration_seconds == Approx(bytes * per_byte).epsilon(1e-12));
  // With one: a narrow range costs more per byte (1 system 3 ×, 8 systems 1.5 ×, 16 systems 4/3 × the
  // 64's), each size against the widest's.
  c.batched_widths = {{500, 1, 5.0}, {500, 64, 1.0}, {1000, 1, 3.0}, {1000, 8, 1.5}, {1000, 64, 1.0}};
  const double widest = 1.5 - 0.5 / 3;
  const double expected = per_byte * bytes * (0.5 * 0.2 * 3.0 + 0.25 * 1.4 * 1.5 + 0.25 * 2.2 * widest) / widest;
  const StepPrediction widths = predict_step(counts, c, it, 5e8, 1);
  CHECK(widths.iteration_seconds == Approx(expected).epsilon(1e-12));
  CHECK(widths.iteration_seconds > 1.15 * linear.iteration_seconds);  // the narrow sizes dearer
  // On two devices each holds half the bytes and half the plane's rows: the width costs of 500 rows.
  const double half_per_byte = unit.seconds(1.1 * bytes, calls) / (1.1 * bytes);
  const double widest_half = 5.0 - 4.0 * 4 / 6;
  const double expected_half =
      half_per_byte * bytes / 2 * (0.5 * 0.2 * 5.0 + 0.25 * 1.4 * 3.0 + 0.25 * 2.2 * widest_half) / widest_half;
  CHECK(predict_step(counts, c, it, 5e8, 2).iteration_seconds == Approx(expected_half).epsilon(1e-12));
  // An AMG block's bytes (half of the widest size's here) at their own cost, 2.5 × the whole batch's
  // per byte: the rate is the widest size's without them.
  c.batched_amg_blocks = {{1000, 8, 2.5}};
  counts.iteration_spread[2].preconditioner_ratio = 1.1;
  const double jacobi_rate = unit.seconds(1.1 * bytes, calls) / (1.1 * bytes) / widest;
  const double with_amg =
      jacobi_rate * bytes * (0.5 * 0.2 * 3.0 + 0.25 * 1.4 * 1.5 + 0.25 * (1.1 * widest + 1.1 * 2.5));
  CHECK(predict_step(counts, c, it, 5e8, 1).iteration_seconds == Approx(with_amg).epsilon(1e-12));
  // Without a spread the mean iteration on the unit's curve.
  counts.iteration_spread.clear();
  CHECK(predict_step(counts, c, it, 5e8, 1).iteration_seconds == Approx(unit.seconds(bytes, calls)).epsilon(1e-12));
}

TEST_CASE("Sub-steps replayed from graphs are priced by the graph curves, the others not", "[predict]") {
  const Calibration c = test::with_graph_curves(synthetic_calibration(1e9));
  StepCounts counts = synthetic_counts();
  const double it = 12;
  const StepPrediction launched = predict_step(counts, c, it, 5e8, 1);
  counts.fixed_graphs[static_cast<int>(time::Phase::predictor)] = true;
  const StepPrediction graphed = predict_step(counts, c, it, 5e8, 1);
  for (int p = 0; p < time::phase_count; ++p) {
    INFO("phase " << p);
    const bool replayed = p == static_cast<int>(time::Phase::predictor);
    CHECK(graphed.phase_graph_curves[p] == replayed);
    CHECK(graphed.phases[p].seconds ==
          Approx(replayed ? expected_graph_seconds(counts.fixed[p], CacheLevel::hot) : launched.phases[p].seconds)
              .epsilon(1e-12));
  }
  // Without graph curves (CPU) every phase stays on the launched curves.
  CHECK(predict_step(counts, synthetic_calibration(1e9), it, 5e8, 1).seconds == Approx(launched.seconds).epsilon(1e-12));
}

TEST_CASE("More devices divide the bytes of each call, not the calls", "[predict]") {
  const Calibration c = synthetic_calibration(1e6);
  const StepCounts counts = synthetic_counts();
  const StepPrediction one = predict_step(counts, c, 7, 8e6, 1);
  const StepPrediction four = predict_step(counts, c, 7, 8e6, 4);
  CHECK(one.cache == CacheLevel::streaming);  // 8 MB > 4 MB last-level cache
  CHECK(four.working_set_bytes == 2e6);
  CHECK(four.cache == CacheLevel::warm);  // 2 MB fits the 4 MB last-level cache
  const PhaseLoad predictor = counts.fixed[0];
  CHECK(four.phases[0].seconds == Approx(expected_seconds(predictor, CacheLevel::warm, 4)).epsilon(1e-12));
  CHECK(four.seconds < one.seconds);
  CHECK(four.seconds > one.seconds / 4);  // latency does not shrink
  // Small enough per device to fit the cache: the hot curves take over.
  CHECK(predict_step(counts, c, 7, 8e6, 8).cache == CacheLevel::hot);
}

TEST_CASE("Pointwise work costs at least its flops over the compute ceiling", "[predict]") {
  Calibration c = synthetic_calibration(1e9);
  PhaseLoad load{};
  constexpr int pointwise = static_cast<int>(KernelKind::pointwise);
  load[pointwise] = {2, 1.6e5, 2e8};  // 2 calls, 80 KB each, 100 Mflop each
  const double memory = 2 * linear_cost(KernelVariant::pointwise, CacheLevel::hot).seconds(8e4);
  CHECK(price(load, c, CacheLevel::hot, 0).seconds == Approx(memory).epsilon(1e-12));  // no ceiling
  c.pointwise_flops_per_second = 1e10;  // 2e8 flops: 20 ms, far above the memory time
  CHECK(price(load, c, CacheLevel::hot, 0).seconds == Approx(2e8 / 1e10).epsilon(1e-12));
  c.pointwise_flops_per_second = 1e18;  // a ceiling far away: the memory curve decides
  CHECK(price(load, c, CacheLevel::hot, 0).seconds == Approx(memory).epsilon(1e-12));
  // The other kinds have no compute term.
  PhaseLoad axpy{};
  axpy[static_cast<int>(KernelKind::axpy)] = {1, 8e4, 1e9};
  c.pointwise_flops_per_second = 1e6;
  CHECK(price(axpy, c, CacheLevel::hot, 0).seconds ==
        Approx(linear_cost(KernelVariant::axpy, CacheLevel::hot).seconds(8e4)).epsilon(1e-12));
}

TEST_CASE("A phase's SpMV calls are priced by form, each form's share on its own curve", "[predict]") {
  const Calibration c = synthetic_calibration(1e9);
  PhaseLoad load{};
  constexpr int spmv = static_cast<int>(KernelKind::spmv);
  load[spmv] = {3, 3e5, 0};
  const auto cost = [](SpmvForm f, double bytes) { return linear_cost(priced_variant(f), CacheLevel::hot).seconds(bytes); };
  // No form counted: the one-vector sELL curve for all three calls.
  CHECK(price(load, c, CacheLevel::hot, 0).seconds == Approx(3 * cost(SpmvForm::sell, 1e5)).epsilon(1e-12));
  SpmvForms forms{};
  forms[static_cast<int>(SpmvForm::sell)] = {1, 1e5, 0};
  forms[static_cast<int>(SpmvForm::sell_vectors)] = {1, 1.5e5, 0};
  forms[static_cast<int>(SpmvForm::csr)] = {1, 0.5e5, 0};
  const double by_form = cost(SpmvForm::sell, 1e5) + cost(SpmvForm::sell_vectors, 1.5e5) + cost(SpmvForm::csr, 0.5e5);
  CHECK(price(load, c, CacheLevel::hot, 0, false, forms).seconds == Approx(by_form).epsilon(1e-12));
  CHECK(by_form != Approx(3 * cost(SpmvForm::sell, 1e5)));
  // A load scaled to a share of a device keeps the forms' shares of its calls and bytes.
  load[spmv] = {3, 1.5e5, 0};
  const double halved = cost(SpmvForm::sell, 0.5e5) + cost(SpmvForm::sell_vectors, 0.75e5) + cost(SpmvForm::csr, 0.25e5);
  CHECK(price(load, c, CacheLevel::hot, 0, false, forms).seconds == Approx(halved).epsilon(1e-12));
  // The interleaved form has a curve of its own.
  CHECK(priced_variant(SpmvForm::sell_interleaved) == KernelVariant::spmv_interleaved_3);
}

TEST_CASE("Beyond the private cache the curves mix warm and streaming by the share the cache keeps", "[predict]") {
  Calibration c = synthetic_calibration(1e6);  // reports 4 MB of last-level cache
  CHECK(curve_mix(c, 3e6) == CacheLevel::warm);
  CHECK(curve_mix(c, 5e6) == CacheLevel::streaming);
  // Shared with others: all kept after 2 MB of other traffic, a quarter after 8 MB, none after 32 MB.
  c.cache_retention = {{2e6, 1.0}, {8e6, 0.25}, {32e6, 0.0}};
  CHECK(curve_mix(c, 5e5) == CacheLevel::hot);
  CHECK(curve_mix(c, 1.5e6) == CacheLevel::warm);
  CHECK(curve_mix(c, 2e6) == CacheLevel::warm);
  CHECK(curve_mix(c, 4e6).warm_share == Approx(0.625).epsilon(1e-12));  // halfway in log bytes
  CHECK(curve_mix(c, 16e6).warm_share == Approx(0.125).epsilon(1e-12));
  CHECK(curve_mix(c, 64e6) == CacheLevel::streaming);
  CHECK(c.retained_cache_bytes() == Approx(2e6 * std::pow(4.0, 2.0 / 3.0)).epsilon(1e-12));  // where half is kept
  // A phase at 4 MB costs 0.625 of its warm price and 0.375 of its streaming one.
  const StepCounts counts = synthetic_counts();
  const StepPrediction s = predict_step(counts, c, 7, 4e6, 1);
  CHECK(describe(s.cache) == "63 % warm");
  const PhaseLoad predictor = counts.fixed[0];
  CHECK(s.phases[0].seconds == Approx(0.625 * expected_seconds(predictor, CacheLevel::warm, 1) +
                                      0.375 * expected_seconds(predictor, CacheLevel::streaming, 1))
                                   .epsilon(1e-12));
  c.cache_retention.clear();  // nothing kept
  CHECK(c.retained_cache_bytes() == 0);
  CHECK(curve_mix(c, 1.5e6) == CacheLevel::streaming);
}

TEST_CASE("The what-if device scales the bandwidth term only", "[predict]") {
  const Calibration c = synthetic_calibration(0);
  const Calibration twice = c.what_if(2 * c.copy_gb_per_s, -1, "twice as fast");
  const StepCounts counts = synthetic_counts();
  const StepPrediction base = predict_step(counts, c, 7, 1e9, 1);
  const StepPrediction fast = predict_step(counts, twice, 7, 1e9, 1);
  double latency = 0, bytes = 0;
  for (int p = 0; p < time::phase_count; ++p) {
    const PhaseLoad l = counts.load(static_cast<time::Phase>(p), 7);
    for (int k = 0; k < kernel_kind_count; ++k) {
      const LinearCost cost = linear_cost(priced_variant(static_cast<KernelKind>(k)), CacheLevel::streaming);
      latency += l[k].calls * cost.latency;
      bytes += l[k].bytes / cost.bandwidth;
    }
  }
  CHECK(base.seconds == Approx(latency + bytes).epsilon(1e-12));
  CHECK(fast.seconds == Approx(latency + bytes / 2).epsilon(1e-12));
  const Calibration slow_launch = c.what_if(c.copy_gb_per_s, 1e-3, "slow launches");
  const StepPrediction slow = predict_step(counts, slow_launch, 7, 1e9, 1);
  double calls = 0;
  for (int p = 0; p < time::phase_count; ++p)
    for (const KindLoad& l : counts.load(static_cast<time::Phase>(p), 7)) calls += l.calls;
  CHECK(slow.seconds == Approx(calls * 1e-3 + bytes).epsilon(1e-12));
}

TEST_CASE("The solve phase is its set-up plus the iterations", "[predict]") {
  const Calibration c = synthetic_calibration(0);
  const StepCounts counts = synthetic_counts();
  const StepPrediction none = predict_step(counts, c, 0, 1e9, 1);
  const StepPrediction ten = predict_step(counts, c, 10, 1e9, 1);
  CHECK(ten.phases[solve].seconds - none.phases[solve].seconds == Approx(10 * ten.iteration_seconds).epsilon(1e-12));
  CHECK(ten.phases[0].seconds == none.phases[0].seconds);
  CHECK_THROWS_AS(predict_step(counts, c, 10, 1e9, 0), Error);
  CHECK_THROWS_AS(predict_step(counts, c, -1, 1e9, 1), Error);
}

}  // namespace
TEST_CASE("The device tables price graph-replayed iterations only when every counted rank replayed them",
          "[predict]") {
  RankProfile a, b;
  a.counts = b.counts = synthetic_counts();
  a.shape = b.shape = {100, 90, 80, 10, 1e6};
  a.counts.iteration_graphs = b.counts.iteration_graphs = true;
  const PartitionShape one{1, 200, 200, 0, 0}, two{2, 110, 90, 10, 1};
  CHECK(strong_rank({a, b}, one, 0.125).counts.iteration_graphs);
  CHECK(strong_rank({a, b}, two, 0.125).counts.iteration_graphs);
  b.counts.iteration_graphs = false;
  CHECK_FALSE(strong_rank({a, b}, one, 0.125).counts.iteration_graphs);
}

TEST_CASE("The device tables keep the launched iterations per iteration done and their sizes", "[predict]") {
  RankProfile a;
  a.counts = synthetic_counts();
  a.counts.launched_per_iteration = 1.09;
  a.counts.iteration_spread = {{0.75, 1.2, 8, 400}, {0.25, 0.4, 2, 400}};
  a.shape = {100, 100, 100, 0, 1e6};
  const PartitionShape one{1, 100, 100, 0, 0}, two{2, 60, 50, 10, 1};
  const RankProfile strong = strong_rank({a}, one, 0.125);
  CHECK(strong.counts.launched_per_iteration == 1.09);
  REQUIRE(strong.counts.iteration_spread.size() == 2);
  CHECK(strong.counts.iteration_spread[1].share == 0.25);
  CHECK(strong.counts.iteration_spread[1].bytes_ratio == 0.4);
  CHECK(strong.counts.iteration_spread[1].systems == 2);
  CHECK(strong.counts.iteration_spread[1].rows == 400);
  // A part of 60 of the 100 cells holds 60 % of the plane's rows, as of its bytes.
  CHECK(strong_rank({a}, two, 0.125).counts.iteration_spread[1].rows == Approx(240).epsilon(1e-12));
  // The SpMVs by form: the ranks' sums (shares of the phase's SpMV load), not scaled to the part.
  constexpr int csr = static_cast<int>(SpmvForm::csr);
  a.counts.fixed_spmv[0][csr] = {2, 4e5, 0};
  RankProfile b = a;
  b.counts.fixed_spmv[0][csr] = {1, 1e5, 0};
  CHECK(strong_rank({a, b}, two, 0.125).counts.fixed_spmv[0][csr].bytes == 5e5);
  CHECK(strong_rank({a, b}, two, 0.125).counts.fixed_spmv[0][csr].calls == 3);
  CHECK(predict_rank_step(strong.counts, synthetic_calibration(1e9), 10, 1e6, 1).launched_iterations ==
        Approx(10.9).epsilon(1e-12));
}

}  // namespace miniapp::predict
