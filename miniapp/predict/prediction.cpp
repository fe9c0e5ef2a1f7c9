#include "miniapp/predict/prediction.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace miniapp::predict {
namespace {

constexpr int dot_kind = static_cast<int>(KernelKind::dot);

PhaseLoad per_device(PhaseLoad load, int devices) {
  for (KindLoad& k : load) k.bytes /= devices, k.flops /= devices;
  return load;
}

const CostCurve& curve(const Calibration& c, KernelVariant v, CacheLevel level, bool replayed) {
  return replayed ? c.graph_curve(v, level) : c.curve(v, level);
}

// `value` of the hot curve of v, or the mix's blend of its warm and streaming curves.
template <class Value>
double mixed(const Calibration& c, KernelVariant v, const CurveMix& mix, bool replayed, Value value) {
  if (mix.hot) return value(curve(c, v, CacheLevel::hot, replayed));
  return mix.warm_share * value(curve(c, v, CacheLevel::warm, replayed)) +
         (1 - mix.warm_share) * value(curve(c, v, CacheLevel::streaming, replayed));
}

// Prices the phase's communication (when calibrated) and adds it to the phase.
void add_comm(PhasePrediction& phase, const CommLoad& load, const Calibration& c, const CurveMix& mix, int devices) {
  if (!c.communication || devices < 2) return;
  const double overlapped =
      load.overlapped_calls > 0
          ? load.overlapped_calls * mixed_seconds(c, priced_variant(KernelKind::spmv), mix,
                                                  load.overlapped_bytes / load.overlapped_calls, false)
          : 0;
  phase.comm = price_comm(load, *c.communication, devices, overlapped);
  phase.seconds += phase.comm.seconds();
}

}  // namespace

std::string unit_name(const StepPrediction& s) {
  const std::string unit(name(*s.iteration_unit));
  return s.iteration_unit_ranks > 1 ? unit + " on " + std::to_string(s.iteration_unit_ranks) + " ranks" : unit;
}

const CostCurve& unit_curve(const StepPrediction& s, const Calibration& c) {
  if (s.iteration_unit_ranks > 1) return *c.communication->iteration_curve(*s.iteration_unit, s.iteration_unit_ranks);
  return *c.iteration_curve(*s.iteration_unit);
}

std::string iteration_pricing(const StepPrediction& s) {
  if (s.iteration_unit) return "unit " + unit_name(s);
  return s.iteration_graph_curves ? "graph" : "launched";
}

std::string describe(const CurveMix& mix) {
  if (mix.hot) return "hot";
  if (mix.warm_share == 1) return "warm";
  if (mix.warm_share == 0) return "streaming";
  return std::to_string(static_cast<int>(std::lround(100 * mix.warm_share))) + " % warm";
}

double mixed_seconds(const Calibration& c, KernelVariant v, const CurveMix& mix, double bytes, bool replayed) {
  return mixed(c, v, mix, replayed, [&](const CostCurve& k) { return k.seconds(bytes); });
}

double mixed_latency(const Calibration& c, KernelVariant v, const CurveMix& mix, bool replayed) {
  return mixed(c, v, mix, replayed, [](const CostCurve& k) { return k.latency(); });
}

CurveMix curve_mix(const Calibration& c, double working_set_bytes) {
  if (working_set_bytes <= c.device.private_cache_bytes) return CacheLevel::hot;
  CurveMix mix;
  mix.warm_share = c.kept_share(working_set_bytes);
  return mix;
}

namespace {

// The SpMV load `l` split in the shares of `forms` (by calls and by bytes), each part on its form's
// curve; on the one-vector sELL curve where no form was counted.
double spmv_seconds(const KindLoad& l, const SpmvForms& forms, const Calibration& c, const CurveMix& mix,
                    bool replayed) {
  KindLoad counted;
  for (const KindLoad& f : forms) counted += f;
  if (counted.calls <= 0 || counted.bytes <= 0)
    return l.calls * mixed_seconds(c, priced_variant(SpmvForm::sell), mix, l.bytes / l.calls, replayed);
  double seconds = 0;
  for (int f = 0; f < spmv_form_count; ++f) {
    const double calls = l.calls * forms[f].calls / counted.calls, bytes = l.bytes * forms[f].bytes / counted.bytes;
    if (calls > 0) seconds += calls * mixed_seconds(c, priced_variant(static_cast<SpmvForm>(f)), mix, bytes / calls, replayed);
  }
  return seconds;
}

}  // namespace

PhasePrediction price(const PhaseLoad& load, const Calibration& c, const CurveMix& mix, double host_reads,
                      bool replayed, const SpmvForms& spmv) {
  PhasePrediction p;
  for (int k = 0; k < kernel_kind_count; ++k) {
    const KindLoad& l = load[k];
    if (l.calls <= 0) continue;
    const auto kind = static_cast<KernelKind>(k);
    double seconds = kind == KernelKind::spmv
                         ? spmv_seconds(l, spmv, c, mix, replayed)
                         : l.calls * mixed_seconds(c, priced_variant(kind), mix, l.bytes / l.calls, replayed);
    if (k == static_cast<int>(KernelKind::pointwise) && c.pointwise_flops_per_second > 0)
      seconds = std::max(seconds, l.flops / c.pointwise_flops_per_second);
    p.kinds[k] = {l.calls, l.bytes, seconds};
    p.seconds += p.kinds[k].seconds;
  }
  p.host_reads = host_reads;
  p.kinds[dot_kind].seconds += host_reads * c.sync_seconds;
  p.seconds += host_reads * c.sync_seconds;
  return p;
}

// The launched iterations of a spread in their shares. The unit's rate per byte is the widest size's
// (the whole batch) without its leading blocks' preconditioner bytes, on the unit's curve; each size
// pays it times the cost of its width (Calibration::batched_width_cost, against the widest's) for
// those bytes, and times the AMG blocks' cost (batched_amg_cost) for its preconditioner's: a narrow
// range of systems costs more per byte.
double spread_seconds(const Calibration& c, const CostCurve& unit, double bytes, double calls,
                      const std::vector<IterationShare>& spread) {
  const IterationShare& widest = *std::max_element(
      spread.begin(), spread.end(), [](const IterationShare& a, const IterationShare& b) { return a.systems < b.systems; });
  const double widest_bytes = bytes * (widest.bytes_ratio - widest.preconditioner_ratio);
  const double per_byte = unit.seconds(widest_bytes, calls) / widest_bytes / c.batched_width_cost(widest.rows, widest.systems);
  double seconds = 0;
  for (const IterationShare& size : spread)
    seconds += size.share * bytes * per_byte *
               ((size.bytes_ratio - size.preconditioner_ratio) * c.batched_width_cost(size.rows, size.systems) +
                size.preconditioner_ratio * c.batched_amg_cost(size.rows));
  return seconds;
}

// The mean iteration of `load` on the unit's curve, or, with a spread of sizes, each size in its share
// (spread_seconds).
PhasePrediction price_unit(const PhaseLoad& load, const Calibration& c, const CurveMix& mix, const CostCurve& unit,
                           const std::vector<IterationShare>& spread, const SpmvForms& spmv) {
  PhasePrediction p = price(load, c, mix, 0, c.graph_curves.has_value(), spmv);
  double bytes = 0, calls = 0;
  for (const KindLoad& k : load) bytes += k.bytes, calls += k.calls;
  const double seconds = spread.empty() ? unit.seconds(bytes, calls) : spread_seconds(c, unit, bytes, calls, spread);
  for (KernelCost& k : p.kinds) k.seconds = p.seconds > 0 ? k.seconds * seconds / p.seconds : 0;
  p.seconds = seconds;
  return p;
}

CommCost price_comm(const CommLoad& load, const CommCalibration& c, int ranks, double overlapped_seconds) {
  CommCost cost;
  cost.reductions = load.reductions * c.allreduce_seconds(ranks);
  if (load.updates <= 0 || load.vectors <= 0) return cost;
  const double one = c.halo_seconds(ranks, load.vectors / load.updates, load.messages / load.vectors,
                                    load.sent_bytes / load.updates);
  cost.halo = load.updates * one;
  if (load.overlapped_updates > 0)
    cost.hidden = load.overlapped_updates * std::min(one, overlapped_seconds / load.overlapped_updates);
  return cost;
}

StepPrediction predict_step(const StepCounts& counts, const Calibration& c, double iterations,
                            double working_set_bytes, int devices) {
  StepCounts share = counts;
  for (PhaseLoad& p : share.fixed) p = per_device(p, devices);
  share.per_iteration = per_device(counts.per_iteration, devices);
  for (IterationShare& size : share.iteration_spread) size.rows /= devices;
  return predict_rank_step(share, c, iterations, working_set_bytes / devices, devices);
}

StepPrediction predict_rank_step(const StepCounts& counts, const Calibration& c, double iterations,
                                 double working_set_bytes, int devices) {
  if (devices < 1 || !(iterations >= 0))
    throw Error("prediction: " + std::to_string(devices) + " devices and " + std::to_string(iterations) +
                " Poisson iterations; need at least 1 device and a non-negative iteration count");
  StepPrediction s;
  s.devices = devices;
  s.iterations = iterations;
  s.working_set_bytes = working_set_bytes;
  s.communication_modelled = devices > 1 && c.communication && counts.comm_per_iteration.reductions > 0;
  s.cache = curve_mix(c, s.working_set_bytes);
  // The Poisson iterations are priced apart from the solve's set-up: their calls have other sizes.
  const PhaseLoad& per_iteration = counts.per_iteration;
  double iteration_bytes = 0;
  for (const KindLoad& k : per_iteration) iteration_bytes += k.bytes;
  s.iteration_cache = curve_mix(c, iteration_bytes);
  s.iteration_graph_curves = counts.iteration_graphs && c.graph_curves.has_value();
  if (counts.iteration_unit && devices > 1 && c.communication &&
      c.communication->iteration_curve(*counts.iteration_unit, devices)) {
    s.iteration_unit = counts.iteration_unit;
    s.iteration_unit_ranks = devices;
  } else if (counts.iteration_unit && c.iteration_curve(*counts.iteration_unit) &&
             counts.iteration_graphs == c.graph_curves.has_value()) {
    // The unit was timed as its solver runs by default: replaying graphs where the backend records them.
    s.iteration_unit = counts.iteration_unit;
  }
  if (s.iteration_unit) s.iteration_sizes = static_cast<int>(counts.iteration_spread.size());
  PhasePrediction iteration =
      s.iteration_unit
          ? price_unit(per_iteration, c, s.iteration_cache, unit_curve(s, c), counts.iteration_spread,
                       counts.per_iteration_spmv)
          : price(per_iteration, c, s.iteration_cache, counts.iteration_host_reads, s.iteration_graph_curves,
                  counts.per_iteration_spmv);
  // A unit timed on the ranks holds the iteration's halo updates and reductions.
  if (s.iteration_unit_ranks == 0) add_comm(iteration, counts.comm_per_iteration, c, s.iteration_cache, devices);
  s.iteration_seconds = iteration.seconds;
  for (int p = 0; p < time::phase_count; ++p) {
    s.phase_graph_curves[p] = counts.fixed_graphs[p] && c.graph_curves.has_value();
    s.phases[p] = price(counts.fixed[p], c, s.cache, counts.fixed_host_reads[p], s.phase_graph_curves[p],
                        counts.fixed_spmv[p]);
    add_comm(s.phases[p], counts.comm_fixed[p], c, s.cache, devices);
    s.explicit_seconds += s.phases[p].seconds;
  }
  PhasePrediction& solve = s.phases[static_cast<int>(time::Phase::poisson_solve)];
  const double launched = s.launched_iterations = counts.launched(iterations);
  for (int k = 0; k < kernel_kind_count; ++k) {
    solve.kinds[k].calls += launched * iteration.kinds[k].calls;
    solve.kinds[k].bytes += launched * iteration.kinds[k].bytes;
    solve.kinds[k].seconds += launched * iteration.kinds[k].seconds;
  }
  solve.host_reads += launched * iteration.host_reads;
  solve.comm.halo += launched * iteration.comm.halo;
  solve.comm.hidden += launched * iteration.comm.hidden;
  solve.comm.reductions += launched * iteration.comm.reductions;
  solve.seconds += launched * iteration.seconds;
  for (const PhasePrediction& p : s.phases) s.communication_seconds += p.comm.seconds();
  s.seconds = s.explicit_seconds + launched * s.iteration_seconds;
  return s;
}

}  // namespace miniapp::predict
