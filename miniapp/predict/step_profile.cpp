#include "miniapp/predict/step_profile.hpp"

#include <array>
#include <chrono>
#include <cstddef>
#include <vector>

#include "core/error.hpp"

namespace miniapp::predict {
namespace {

KindLoad load_of(const KernelTally& t) { return {static_cast<double>(t.calls), t.bytes, t.flops}; }

constexpr int solve = static_cast<int>(time::Phase::poisson_solve);

// v_s = a + b it_s by least squares over the samples; returns {a, b}. All it_s equal: {0, mean v / it}.
std::array<double, 2> linear_fit(const std::vector<double>& it, const std::vector<double>& v) {
  const double n = static_cast<double>(it.size());
  double mi = 0, mv = 0;
  for (std::size_t s = 0; s < it.size(); ++s) mi += it[s] / n, mv += v[s] / n;
  double cov = 0, var = 0;
  for (std::size_t s = 0; s < it.size(); ++s) cov += (it[s] - mi) * (v[s] - mv), var += (it[s] - mi) * (it[s] - mi);
  if (var == 0) return {0.0, mi > 0 ? mv / mi : 0.0};
  const double b = cov / var;
  return {mv - b * mi, b};
}

// Splits the solve phase's communication of each step into fixed + it × per-iteration.
void split_solve_comm(const std::vector<double>& it, const std::vector<CommLoad>& solves, StepCounts& c) {
  std::array<double, CommLoad::field_count> fixed{}, per_iteration{};
  for (int f = 0; f < CommLoad::field_count; ++f) {
    std::vector<double> v;
    for (const CommLoad& s : solves) v.push_back(s.values()[f]);
    const auto fit = linear_fit(it, v);
    fixed[f] = fit[0], per_iteration[f] = fit[1];
  }
  c.comm_fixed[solve] = CommLoad::from_values(fixed);
  c.comm_per_iteration = CommLoad::from_values(per_iteration);
}

// A phase's kernel load as the counters hold it, and its SpMVs by form.
PhaseLoad phase_load(const KernelCounters& counters) {
  PhaseLoad l;
  for (int k = 0; k < kernel_kind_count; ++k) l[k] = load_of(counters.tally(static_cast<KernelKind>(k)));
  return l;
}

SpmvForms spmv_forms(const KernelCounters& counters) {
  SpmvForms f;
  for (int k = 0; k < spmv_form_count; ++k) f[k] = load_of(counters.spmv_tally(static_cast<SpmvForm>(k)));
  return f;
}

// sum += x / divisor, entry by entry, for loads by kind or SpMVs by form.
template <std::size_t N>
void add_divided(std::array<KindLoad, N>& sum, const std::array<KindLoad, N>& x, double divisor = 1) {
  for (std::size_t i = 0; i < N; ++i) sum[i] += x[i] / divisor;
}

// Splits loads summed over `steps` steps, `iterating` of them iteration work, into the load per step
// besides the iterations (`fixed`) and the load per queued iteration.
template <std::size_t N>
void split_loads(const std::array<KindLoad, N>& all, const std::array<KindLoad, N>& iterating, double steps,
                 double queued, std::array<KindLoad, N>& fixed, std::array<KindLoad, N>& per_iteration) {
  for (std::size_t i = 0; i < N; ++i) {
    fixed[i] = (all[i] - iterating[i]) / steps;
    per_iteration[i] = queued > 0 ? iterating[i] / queued : KindLoad{};
  }
}

// The solve phase summed over the counted steps: its whole load and host reads, the part of them that
// is iteration work, and the iterations queued (whole batches) and done.
struct SolveTotals {
  double steps = 0, queued = 0, done = 0, host_reads = 0, iteration_host_reads = 0;
  PhaseLoad all{}, iterating{};
  SpmvForms all_spmv{}, iterating_spmv{};
};

// Splits the solve phase's load and host reads into fixed + it × per-iteration: the iteration work per
// queued iteration, the rest (set-up and finish) per step.
void split_solve(const SolveTotals& t, StepCounts& c) {
  c.fixed_host_reads[solve] = (t.host_reads - t.iteration_host_reads) / t.steps;
  c.iteration_host_reads = t.queued > 0 ? t.iteration_host_reads / t.queued : 0;
  split_loads(t.all, t.iterating, t.steps, t.queued, c.fixed[solve], c.per_iteration);
  split_loads(t.all_spmv, t.iterating_spmv, t.steps, t.queued, c.fixed_spmv[solve], c.per_iteration_spmv);
}

// The shares of the launched iterations' sizes (equal sizes merged) and their bytes over the mean.
std::vector<IterationShare> spread_of(const std::vector<IterationSize>& sizes) {
  std::vector<IterationSize> merged;
  double iterations = 0, bytes = 0;
  for (const IterationSize& s : sizes) {
    iterations += s.iterations, bytes += s.iterations * s.bytes;
    add_iterations(merged, s);
  }
  if (merged.size() < 2 || !(bytes > 0)) return {};
  const double mean = bytes / iterations;
  std::vector<IterationShare> spread;
  for (const IterationSize& m : merged)
    spread.push_back({m.iterations / iterations, m.bytes / mean, static_cast<double>(m.systems),
                      static_cast<double>(m.rows), m.preconditioner_bytes / mean});
  return spread;
}

void add_kernel_seconds(const time::StepReport& r, int steps, StepMeasurement& m) {
  for (int p = 0; p < time::phase_count; ++p)
    for (int k = 0; k < kernel_kind_count; ++k)
      m.kernel_seconds[p][k] += r.kernels[p].tally(static_cast<KernelKind>(k)).seconds / steps;
}

// The calibrated unit of the case's Poisson iteration, if any (the FFT path as calibrated: Jacobi),
// AIP-1 by the form it took on the case's matrix, AMG as its V-cycle on the stencil's hierarchy.
// Several ranks run DistributedPcg, whose units are timed per rank count for block Jacobi and AMG
// only (CommCalibration::iterations), so AIP-1 has none there (its unit is Pcg's on one rank). The FFT
// path's BatchedPcg is one solver on one rank and on several: its unit prices a rank's rows, its halo
// updates and sums apart.
std::optional<IterationUnit> iteration_unit_of(const cases::NumericsConfig& n, std::optional<AipForm> aip_form,
                                               int ranks) {
  if (n.poisson == cases::PoissonSolver::fft) return IterationUnit::batched_pcg;
  if (n.preconditioner == cases::Preconditioner::jacobi) return IterationUnit::pcg_jacobi;
  if (n.preconditioner == cases::Preconditioner::amg) return IterationUnit::pcg_amg;
  if (n.preconditioner == cases::Preconditioner::aip1 && ranks == 1)
    return aip_form == AipForm::product ? IterationUnit::pcg_aip1_product : IterationUnit::pcg_aip1;
  return std::nullopt;
}

}  // namespace

PhaseLoad StepCounts::load(time::Phase phase, double it) const {
  PhaseLoad l = fixed[static_cast<int>(phase)];
  if (phase != time::Phase::poisson_solve) return l;
  const double n = launched(it);
  for (int k = 0; k < kernel_kind_count; ++k) l[k] += per_iteration[k] * n;
  return l;
}

CommLoad StepCounts::comm(time::Phase phase, double it) const {
  CommLoad l = comm_fixed[static_cast<int>(phase)];
  if (phase == time::Phase::poisson_solve) l += comm_per_iteration.scaled(launched(it));
  return l;
}

StepCounts count_step(run::Simulation& sim, int steps) {
  if (steps < 1) throw Error("kernel counts: " + std::to_string(steps) + " counted steps; need at least 1");
  run::settle_pressure_path(sim);  // the steps that time both pressure paths are no step of the run's
  std::vector<double> queued;
  std::vector<IterationSize> sizes;
  std::vector<CommLoad> solve_comm;
  SolveTotals totals;
  StepCounts c;
  c.iteration_graphs = true;
  c.fixed_graphs.fill(true);
  CommRecorder recorder(*sim.domain, sim.exec.counters());
  for (int s = 0; s <= steps; ++s) {
    const std::uint64_t start = sim.exec.counters().total().calls;
    const time::StepReport r = sim.scheme->advance(*sim.fields);
    const PhaseComm comm = attribute_to_phases(recorder.take(), r, start);
    solve_comm.push_back(comm[solve]);
    queued.push_back(r.poisson.queued_iterations);
    sizes.insert(sizes.end(), r.poisson.iteration_sizes.begin(), r.poisson.iteration_sizes.end());
    c.iteration_graphs = c.iteration_graphs && r.poisson.replayed_batches > 0;
    totals.steps += 1, totals.queued += r.poisson.queued_iterations, totals.done += r.poisson.iterations;
    totals.host_reads += static_cast<double>(r.kernels[solve].host_reads());
    totals.iteration_host_reads += static_cast<double>(r.poisson.iteration_kernels.host_reads());
    add_divided(totals.all, phase_load(r.kernels[solve]));
    add_divided(totals.iterating, phase_load(r.poisson.iteration_kernels));
    add_divided(totals.all_spmv, spmv_forms(r.kernels[solve]));
    add_divided(totals.iterating_spmv, spmv_forms(r.poisson.iteration_kernels));
    if (s == 0) continue;  // the warm-up step: its solve joins the split, its other phases do not
    for (int p = 0; p < time::phase_count; ++p) {
      c.fixed_graphs[p] = c.fixed_graphs[p] && r.replayed[p];
      if (p != solve) c.fixed_host_reads[p] += static_cast<double>(r.kernels[p].host_reads()) / steps;
      c.comm_fixed[p] += comm[p].scaled(1.0 / steps);
      add_divided(c.fixed[p], phase_load(r.kernels[p]), steps);
      add_divided(c.fixed_spmv[p], spmv_forms(r.kernels[p]), steps);
    }
    c.iterations += r.poisson.iterations / static_cast<double>(steps);
  }
  c.iteration_unit = iteration_unit_of(sim.config.numerics, sim.aip_form, sim.ranks());
  if (c.iteration_unit == IterationUnit::batched_pcg) {
    // The FFT path: its frequency systems drop out of the batched iterations one by one, so its load
    // is no set-up plus a constant per iteration. Its transforms (the copy calls) are the set-up; every
    // other call is iteration work, per iteration of the longest-running system, as the batched unit
    // prices it, launched: its batches run whole. Its host reads are split as the solver counted them.
    totals.iterating = totals.all;
    totals.iterating[static_cast<int>(KernelKind::copy)] = {};
    totals.iterating_spmv = totals.all_spmv;
    c.launched_per_iteration = totals.done > 0 ? totals.queued / totals.done : 1;
    c.iteration_spread = spread_of(sizes);
  }
  // Elsewhere the iteration work is what the solver counted its iterations make
  // (PcgResult::iteration_kernels): exact at any iteration count, also where every counted solve took as many.
  split_solve(totals, c);
  split_solve_comm(queued, solve_comm, c);
  return c;
}

StepMeasurement measure_steps(run::Simulation& sim, int steps) {
  if (steps < 1) throw Error("measurement: " + std::to_string(steps) + " measured steps; need at least 1");
  run::settle_pressure_path(sim);
  StepMeasurement m;
  m.steps = steps;
  const bool asynchronous = sim.exec.backend() != Backend::cpu;
  CommRecorder recorder(*sim.domain, sim.exec.counters());
  for (int s = 0; s < steps; ++s) {
    const std::uint64_t calls = sim.exec.counters().total().calls;
    const auto start = std::chrono::steady_clock::now();
    const time::StepReport r = sim.scheme->advance(*sim.fields);
    sim.exec.synchronize();
    const PhaseComm comm = attribute_to_phases(recorder.take(), r, calls);
    for (int p = 0; p < time::phase_count; ++p) m.comm_seconds[p] += comm[p].seconds / steps;
    m.step_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / steps;
    m.iterations += r.poisson.iterations / static_cast<double>(steps);
    if (asynchronous) continue;
    add_kernel_seconds(r, steps, m);
  }
  time::StepMeter timed(sim.exec, true);
  for (int s = 0; s < steps; ++s) {
    const time::StepReport r = sim.scheme->advance(*sim.fields, timed);
    for (int p = 0; p < time::phase_count; ++p) m.timed_seconds[p] += r.phase_seconds[p] / steps;
  }
  recorder.take();  // counted in the first pass
  if (!asynchronous) return m;
  sim.exec.set_profiling(true);
  for (int s = 0; s < steps; ++s) {
    const time::StepReport r = sim.scheme->advance(*sim.fields);
    add_kernel_seconds(r, steps, m);
  }
  recorder.take();  // the profiled pass's communication waits for synchronised kernels: not counted
  sim.exec.set_profiling(false);
  return m;
}

}  // namespace miniapp::predict
