#include "miniapp/predict/model_notes.hpp"

namespace miniapp::predict {
namespace {

// The share of the step spent in per-call latency and host round trips, each call at the latency of
// the curve that priced it: launched, replayed from a graph, or its iteration unit's per call.
double latency_share(const StepPrediction& s, const PredictionReport& r) {
  const Calibration& c = r.calibration;
  const auto kernel_latency = [&](int k, bool replayed, const CurveMix& mix) {
    return mixed_latency(c, priced_variant(static_cast<KernelKind>(k)), mix, replayed);
  };
  constexpr int solve = static_cast<int>(time::Phase::poisson_solve);
  double latency = 0;
  for (int p = 0; p < time::phase_count; ++p) {
    latency += s.phases[p].host_reads * c.sync_seconds;
    for (int k = 0; k < kernel_kind_count; ++k) {
      const double iteration_calls = p == solve ? s.iterations * r.counts.per_iteration[k].calls : 0.0;
      latency += (s.phases[p].kinds[k].calls - iteration_calls) * kernel_latency(k, s.phase_graph_curves[p], s.cache);
      latency += iteration_calls * (s.iteration_unit ? unit_curve(s, c).latency()
                                                     : kernel_latency(k, s.iteration_graph_curves, s.iteration_cache));
    }
  }
  return s.seconds > 0 ? latency / s.seconds : 0.0;
}

std::string cache_note(const PredictionReport& r, const StepPrediction& one) {
  Calibration streaming_only = r.calibration;
  streaming_only.device.private_cache_bytes = 0;
  streaming_only.cache_retention.clear();  // nothing kept: the streaming curves
  const StepPrediction cold = predict_step(r.counts, streaming_only, one.iterations, one.working_set_bytes, 1);
  return "After the working set (" + fixed(one.working_set_bytes / 1e6, 1) + " MB) of other traffic the calibration " +
         "found " + fixed(100 * r.calibration.kept_share(one.working_set_bytes), 0) +
         " % of an operand still in the last-level cache (half of it up to " +
         fixed(r.calibration.retained_cache_bytes() / 1e6, 0) + " MB): the sub-steps are priced on the " +
         describe(one.cache) + " curves, the Poisson iterations on the " + describe(one.iteration_cache) +
         " ones. The calibration's kernels find their operands in one cache level; a step's mix of arrays may "
         "come partly from another: with every call streaming from memory the prediction would be " +
         fixed(cold.seconds / one.seconds, 2) + "x longer.";
}

}  // namespace

std::vector<std::string> model_notes(const PredictionReport& r) {
  std::vector<std::string> notes;
  const StepPrediction& one = r.at_measured ? *r.at_measured : r.scaling.front();
  if (one.cache != CacheLevel::streaming || one.iteration_cache != CacheLevel::streaming)
    notes.push_back(cache_note(r, one));
  const double share = latency_share(one, r);
  if (share > 0.2)
    notes.push_back("Small mesh: " + fixed(100 * share, 0) +
                    " % of the predicted step is per-call latency (kernel launch, host round trips, OpenMP fork/join), which does not "
                    "shrink with more devices; the speed-up flattens accordingly.");
  notes.push_back("SpMV calls are priced by form (sELL with one vector, several vectors, interleaved vectors; CSR), each "
                  "on its curve, calibrated on the 3D stencil and its cell-to-face map: a matrix with other row lengths "
                  "gathers its x otherwise. Several vectors are priced as three, their most common count.");
  if (r.les)
    notes.push_back("The eddy-viscosity kernel (phase 5) does tens to hundreds of flops per cell: it is priced at the "
                    "larger of its memory time and its counted flops over the compute ceiling calibrated on the WALE "
                    "kernel; a model whose real work exceeds its counted flops (sigma: an eigenvalue solve) may take "
                    "longer than predicted.");
  if (r.scaling.size() > 1 && r.ranks == 1)
    notes.push_back("Counted on one rank: the multi-device rows price each device's share of the kernels but no halo "
                    "updates or global reductions; run 'mpirun -np 2 miniapp predict ...' (or more ranks) to count them.");
  const auto& comm = r.calibration.communication;
  if (r.ranks > 1 && comm && static_cast<int>(r.scaling.size()) > comm->max_ranks())
    notes.push_back("Communication was calibrated on up to " + std::to_string(comm->max_ranks()) +
                    " ranks: rows beyond price halo updates with that curve and extrapolate the allreduce latency "
                    "in log2 of the rank count.");
  if (r.ranks > 1)
    notes.push_back("The halo curve is measured with a synthetic ring of neighbours (Subdomain updates, gather and "
                    "scatter kernels taken out where the executor times them: CPU); an update is priced as one "
                    "latency plus the rank's halo bytes over that bandwidth, the mean update of a phase standing "
                    "for all of them.");
  return notes;
}

}  // namespace miniapp::predict
