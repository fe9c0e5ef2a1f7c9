#pragma once
#include <array>
#include <optional>
#include <string>

#include "miniapp/predict/calibration.hpp"
#include "miniapp/predict/step_profile.hpp"

// Thesis §2.5.4: T_step = T_explicit + it · T_iteration, here with every counted kernel call priced
// by its calibrated curve: a phase's calls of kind k cost calls · t_k(bytes / calls).
namespace miniapp::predict {

struct KernelCost {
  double calls = 0, bytes = 0, seconds = 0;
};

// What the communication of a phase costs one rank (thesis §2.4): its halo updates, less the part
// hidden behind the kernels that ran while they travelled (the overlapped SpMV: an update costs
// max(halo, inner SpMV), the inner SpMV being among the kernels already), plus its global reductions.
struct CommCost {
  double halo = 0, hidden = 0, reductions = 0;
  double seconds() const { return halo - hidden + reductions; }
};

struct PhasePrediction {
  std::array<KernelCost, kernel_kind_count> kinds{};  // the DOT column includes the host round trips
  double host_reads = 0;  // calls that wait for the device to return a value (each + sync_seconds)
  CommCost comm;
  double seconds = 0;     // kernels and communication
};

// The curves a call is priced on: the hot ones alone when its working set fits the private cache (CPU
// L2; GPUs have none counted); otherwise `warm_share` of the warm curves' time and the rest of the
// streaming curves', the share the calibration found kept after that many bytes of other traffic
// (Calibration::kept_share). One level alone converts to a mix.
struct CurveMix {
  bool hot = false;
  double warm_share = 0;
  CurveMix() = default;
  CurveMix(CacheLevel level)  // NOLINT(google-explicit-constructor): a level is a mix of one
      : hot(level == CacheLevel::hot), warm_share(level == CacheLevel::warm ? 1.0 : 0.0) {}
  bool operator==(const CurveMix&) const = default;
};

// "hot", "warm", "streaming", or "62 % warm" for a mix.
std::string describe(const CurveMix& mix);

// A call of `bytes` (and `calls`) on `mix` of the curves of variant v (the graph curves when
// `replayed`; precondition: then c.graph_curves is set), and the latency per call it is priced with.
double mixed_seconds(const Calibration& c, KernelVariant v, const CurveMix& mix, double bytes, bool replayed);
double mixed_latency(const Calibration& c, KernelVariant v, const CurveMix& mix, bool replayed);

struct StepPrediction {
  int devices = 1;
  double iterations = 0;          // Poisson iterations per step assumed
  double launched_iterations = 0; // and launched for them (StepCounts::launched), which are priced
  bool launched_past_stop() const { return launched_iterations != iterations; }
  double working_set_bytes = 0;   // per device: what the step touches (the executor's allocation)
  // The curves used (curve_mix) by reuse distance: a sub-step's operands were last touched a step
  // ago (the whole working set in between); a Poisson iteration's, one iteration ago.
  CurveMix cache;
  CurveMix iteration_cache;
  // The Poisson iterations priced by the graph curves (counts.iteration_graphs and the calibration
  // has them); otherwise, and always for the other phases, by the curves of launched calls.
  bool iteration_graph_curves = false;
  // The Poisson iterations priced as one unit (Calibration::iteration_curves) instead: set when the
  // counts name a unit that the calibration has and the solves ran as the unit was timed (replaying
  // graphs exactly where the calibration's backend records them: CUDA).
  // On several devices the unit's curve timed on that many ranks (CommCalibration::iterations) where
  // the calibration has it, halo updates and reductions inside (iteration_unit_ranks, 0 otherwise);
  // without it the one-rank curve prices the kernels and the communication is added.
  std::optional<IterationUnit> iteration_unit;
  int iteration_unit_ranks = 0;
  int iteration_sizes = 0;  // sizes of launched iterations the unit priced apart (StepCounts::iteration_spread)
  // Per phase: its fixed calls priced by the graph curves (the sub-step replayed a recorded graph,
  // StepCounts::fixed_graphs, and the calibration has them).
  std::array<bool, time::phase_count> phase_graph_curves{};
  std::array<PhasePrediction, time::phase_count> phases{};
  double explicit_seconds = 0;    // T_explicit: everything but the Poisson iterations
  double iteration_seconds = 0;   // T_iteration: one Poisson iteration
  // Halo updates and global reductions between devices (in the phases' seconds too); modelled when
  // the calibration has communication costs and the counts have communication (a run on ≥ 2 ranks).
  double communication_seconds = 0;
  bool communication_modelled = false;
  double seconds = 0;             // T_step = T_explicit + launched it · T_iteration (communication included)
};

// The unit that priced the Poisson iterations of `s`: e.g. "pcg_amg", or "pcg_amg on 2 ranks" for a
// unit timed on the ranks. Precondition: s.iteration_unit.
std::string unit_name(const StepPrediction& s);

// The curve of that unit in `c` (the one `s` was priced with). Precondition: s.iteration_unit.
const CostCurve& unit_curve(const StepPrediction& s, const Calibration& c);

// How the Poisson iterations of `s` were priced: "unit " + unit_name(s) (timed whole), "graph" or
// "launched".
std::string iteration_pricing(const StepPrediction& s);

// Where a step with this working set finds its operands: hot when it fits the private cache;
// otherwise warm for the share c.kept_share(working_set_bytes), streaming for the rest.
CurveMix curve_mix(const Calibration& c, double working_set_bytes);

// The cost of `load` on the curves of `mix` (the graph curves when `replayed`; precondition: then
// c.graph_curves is set): for each kind, calls · t(bytes / calls) (pointwise: at least flops /
// c.pointwise_flops_per_second; SpMV: its calls and bytes split in the shares of `spmv`, each form's
// part on its variant's curve), plus host_reads · c.sync_seconds (booked to the DOT kind, the
// reductions that return to the host).
PhasePrediction price(const PhaseLoad& load, const Calibration& c, const CurveMix& mix, double host_reads,
                      bool replayed = false, const SpmvForms& spmv = {});

// The cost of a Poisson iteration whose kernels are `load`, timed as one unit: unit.seconds(bytes,
// calls) of the load, the host read of its batch included, or with a `spread` of the batched
// iterations' sizes (StepCounts::iteration_spread) Σ share · seconds of each size: the widest (the
// whole batch) without its AMG blocks' bytes sets the rate per byte on the unit's curve, each size
// pays it times c.batched_width_cost(rows, systems) of its width over the widest's for its other
// bytes and times c.batched_amg_cost(rows) for its blocks'; shared among the kinds in the
// proportions of their prices on the graph curves (the launched ones where c has none), so that the
// breakdown adds up.
PhasePrediction price_unit(const PhaseLoad& load, const Calibration& c, const CurveMix& mix, const CostCurve& unit,
                           const std::vector<IterationShare>& spread = {}, const SpmvForms& spmv = {});

// The cost of `load` on `ranks` ranks (an update as the mean of the phase's, see CommCost), with
// `overlapped_seconds` the time of the kernels that ran while the updates travelled.
CommCost price_comm(const CommLoad& load, const CommCalibration& c, int ranks, double overlapped_seconds);

// The predicted step of one rank whose own loads are `rank_counts` (kernel bytes not divided), on
// `devices` ranks, `working_set_bytes` its memory; communication priced when c.communication is set.
StepPrediction predict_rank_step(const StepCounts& rank_counts, const Calibration& c, double iterations,
                                 double working_set_bytes, int devices);

// The predicted step of the counted case at `iterations` Poisson iterations, its rows split evenly
// over `devices` (every call moves bytes / devices; calls unchanged), with `working_set_bytes` of
// the whole case (memory per device = working_set / devices) choosing the curves of the sub-steps,
// and the bytes of one Poisson iteration those of the iterations (curve_mix). Host round trips:
// counts.fixed_host_reads per phase and counts.iteration_host_reads per iteration (the counted calls
// that returned a value to the host). A sub-step replayed from a graph (counts.fixed_graphs) on the
// graph curves; the iterations' calls on the graph curves when they were replayed from graphs and c
// has graph curves, and as one unit (price_unit) when c has the curve of counts.iteration_unit and the
// solves replayed graphs exactly where c's backend records them; on several devices by the unit's
// curve timed on that many ranks where c.communication has it (its communication inside).
// Preconditions:
// devices ≥ 1, iterations ≥ 0.
StepPrediction predict_step(const StepCounts& counts, const Calibration& c, double iterations,
                            double working_set_bytes, int devices);

}  // namespace miniapp::predict
