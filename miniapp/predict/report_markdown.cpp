// The Markdown report (miniapp/predict/report.hpp).
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "core/error.hpp"
#include "miniapp/predict/achieved_bandwidth.hpp"
#include "miniapp/predict/report.hpp"

namespace miniapp::predict {
namespace {

constexpr int solve = static_cast<int>(time::Phase::poisson_solve);

std::string ms(double seconds) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(seconds < 1e-3 ? 4 : 3) << 1e3 * seconds;
  return s.str();
}

std::string percent(double x) {
  std::string s = x >= 0 ? "+" : "";  // (one append at a time: GCC 12 warns falsely on "+" + string)
  s += fixed(100 * x, 1);
  return s += " %";
}

// One row of the counts table: the calls of `l` (beside the thesis' where given) and `mb` megabytes.
void counts_row(std::ostream& out, const std::string& what, const PhaseLoad& l, const ThesisRow* t, double mb) {
  const auto calls = [&](KernelKind kind, int thesis) {
    const std::string ours = fixed(l[static_cast<int>(kind)].calls, 1);
    return t ? ours + " / " + std::to_string(thesis) : ours;
  };
  out << "| " << what << " | " << calls(KernelKind::spmv, t ? t->spmv : 0) << " | "
      << calls(KernelKind::axpy, t ? t->axpy : 0) << " | " << calls(KernelKind::dot, t ? t->dot : 0) << " | "
      << fixed(l[static_cast<int>(KernelKind::pointwise)].calls + l[static_cast<int>(KernelKind::copy)].calls, 1)
      << " | " << fixed(mb, 2) << " |\n";
}

double megabytes(const PhaseLoad& l, double times = 1) {
  double bytes = 0;
  for (const KindLoad& x : l) bytes += x.bytes;
  return times * bytes / 1e6;
}

void counts_section(std::ostream& out, const PredictionReport& r) {
  out << "## Kernel calls per step, beside thesis Table 2.1\n\nCounted by the backend over " << r.counted_steps
      << " steps (after one warm-up step); the Poisson solve as its set-up (per step) and its iterations (calls per "
      << "iteration, megabytes of the " << fixed(r.counts.iterations, 1) << " iterations per step).\n\n"
      << "| sub-step | SpMV (ours / thesis) | AXPY | DOT | pointwise + copy | MB per step |\n|---|---|---|---|---|---|\n";
  for (int p = 0; p < time::phase_count; ++p) {
    const std::string phase(name(static_cast<time::Phase>(p)));
    const ThesisRow& t = thesis_table_2_1[p];
    if (p != solve) {
      counts_row(out, phase, r.counts.fixed[p], &t, megabytes(r.counts.fixed[p]));
      continue;
    }
    counts_row(out, phase + " (set-up)", r.counts.fixed[p], nullptr, megabytes(r.counts.fixed[p]));
    counts_row(out, phase + " (per iteration)", r.counts.per_iteration, &t,
               megabytes(r.counts.per_iteration, r.counts.launched(r.counts.iterations)));
  }
  out << "\n";
}

void breakdown_section(std::ostream& out, const StepPrediction& s, const std::string& title) {
  out << "## " << title << "\n\n" << "T_step = T_explicit + it · T_iteration = " << ms(s.explicit_seconds) << " + "
      << fixed(s.launched_iterations, 1) << " · " << ms(s.iteration_seconds) << " = **" << ms(s.seconds) << " ms** ("
      << (s.launched_past_stop() ? "the iterations launched for " + fixed(s.iterations, 1) + " done, in whole batches; " : std::string())
      << describe(s.cache) << " curves for the sub-steps: working set " << fixed(s.working_set_bytes / 1e6, 1)
      << " MB per device; " << describe(s.iteration_cache) << " for the Poisson iterations, "
      << (s.iteration_unit ? "timed as one unit (" + unit_name(s) + ")" +
                                 (s.iteration_sizes > 0 ? ", each of their " + std::to_string(s.iteration_sizes) +
                                                              " sizes priced by the systems it ran over"
                                                        : std::string())
          : s.iteration_graph_curves ? "on the graph curves: replayed from a kernel graph"
                                     : "on the launched curves")
      << "; sub-steps replayed from graphs on the graph curves, every other call on the launched curves)\n\n"
      << "| sub-step | SpMV ms | AXPY ms | DOT ms | pointwise ms | copy ms | communication ms | total ms | share |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  for (int p = 0; p < time::phase_count; ++p) {
    const PhasePrediction& ph = s.phases[p];
    out << "| " << name(static_cast<time::Phase>(p)) << " |";
    for (const KernelCost& k : ph.kinds) out << " " << ms(k.seconds) << " |";
    out << " " << ms(ph.comm.seconds()) << " |";
    out << " " << ms(ph.seconds) << " | " << fixed(100 * ph.seconds / s.seconds, 1) << " % |\n";
  }
  out << "\n";
}

// One table of time per step against devices; `one` the 1-device time the speed-up is against.
void devices_table(std::ostream& out, const std::vector<StepPrediction>& rows, bool weak) {
  out << "| devices | memory per device (MB) | curves | T_step ms | of which communication ms | "
      << (weak ? "efficiency" : "speed-up | efficiency") << " |\n|---|---|---|---|---|" << (weak ? "---|" : "---|---|")
      << "\n";
  const double one = rows.front().seconds;
  for (const StepPrediction& s : rows) {
    out << "| " << s.devices << " | " << fixed(s.working_set_bytes / 1e6, 1) << " | " << describe(s.cache) << " | "
        << ms(s.seconds) << " | " << (s.communication_modelled || s.devices == 1 ? ms(s.communication_seconds) : "not modelled")
        << " | ";
    if (!weak) out << fixed(one / s.seconds, 2) << " | " << fixed(100 * one / s.seconds / s.devices, 0) << " % |\n";
    else out << fixed(100 * one / s.seconds, 0) << " % |\n";
  }
  out << "\n";
}

void scaling_section(std::ostream& out, const PredictionReport& r) {
  out << "## Time per step against the number of devices\n\n**Strong scaling** (the case's mesh split by METIS: "
         "each row prices the largest part's cells, halo cells and neighbours";
  if (r.ranks > 1)
    out << "; halo updates and reductions as counted on " << r.ranks << " ranks, priced from the calibration, "
        << "the PCG's SpMV overlapped with its halo).\n\n";
  else
    out << "). Counted on one rank: halo updates and global reductions are **not modelled** (run under "
           "`mpirun -np 2` or more to count them), so the speed-up below is an upper bound.\n\n";
  devices_table(out, r.scaling, false);
  if (r.weak.empty()) return;
  out << "**Weak scaling** (each device holds as many cells as the whole case: kernels as on one device, halo bytes "
         "of the strong partition × devices^((d−1)/d); Poisson iterations held at the counted value, though they "
         "grow with the mesh).\n\n";
  devices_table(out, r.weak, true);
}

// What each rank sent, by phase: the counts the communication model prices.
void communication_section(std::ostream& out, const PredictionReport& r) {
  const RankProfile& p = r.rank_profiles.front();
  out << "## Communication per step, rank 0 of " << r.ranks << " (as its Subdomain reports them, transport "
      << r.transport << ")\n\nRank 0: " << fixed(p.shape.owned, 0) << " owned cells (" << fixed(p.shape.inner, 0)
      << " inner), " << fixed(p.shape.halo, 0) << " halo cells.\n\n"
      << "| sub-step | halo updates | of which overlapped | vectors per update | KB sent per update | "
         "neighbours | reductions |\n|---|---|---|---|---|---|---|\n";
  const auto row = [&](const std::string& label, const CommLoad& l) {
    if (l.updates <= 0 && l.reductions <= 0) return;
    out << "| " << label << " | " << fixed(l.updates, 1) << " | " << fixed(l.overlapped_updates, 1) << " | "
        << (l.updates > 0 ? fixed(l.vectors / l.updates, 1) : "-") << " | "
        << (l.updates > 0 ? fixed(l.sent_bytes / l.updates / 1e3, 2) : "-") << " | "
        << (l.vectors > 0 ? fixed(l.messages / l.vectors, 1) : "-") << " | " << fixed(l.reductions, 1) << " |\n";
  };
  for (int ph = 0; ph < time::phase_count; ++ph) row(std::string(name(static_cast<time::Phase>(ph))), p.counts.comm_fixed[ph]);
  row("2.2 per Poisson iteration", p.counts.comm_per_iteration);
  out << "\n";
}

void measured_section(std::ostream& out, const PredictionReport& r) {
  const StepMeasurement& m = *r.measured;
  const StepPrediction& s = *r.at_measured;
  out << "## Predicted against measured\n\n" << m.steps << " measured steps, " << fixed(m.iterations, 1)
      << " Poisson iterations per step (the prediction below uses this count"
      << (s.launched_past_stop() ? ", priced as the " + fixed(s.launched_iterations, 1) + " launched for it"
                                                : std::string())
      << "), on " << r.ranks
      << (r.ranks > 1 ? " ranks (per phase the slowest rank)" : " rank")
      << ". Per phase: its time on the executor from its first call to the end of its last (device time "
         "between events on a GPU, wall time on the CPU), its communication included; the communication column "
         "holds the halo updates' time outside kernels (the reductions' time is not seen apart).\n\n"
      << "| sub-step | predicted ms | of which communication | measured ms | of which communication | error |\n"
      << "|---|---|---|---|---|---|\n";
  double kernels = 0;
  for (int p = 0; p < time::phase_count; ++p) {
    const double measured = m.phase_seconds(static_cast<time::Phase>(p));
    kernels += measured;
    if (measured <= 0 && s.phases[p].seconds <= 0) continue;
    out << "| " << name(static_cast<time::Phase>(p)) << " | " << ms(s.phases[p].seconds) << " | "
        << ms(s.phases[p].comm.seconds()) << " | " << ms(measured) << " | " << ms(m.comm_seconds[p]) << " | "
        << (measured > 0 ? percent(relative_error(s.phases[p].seconds, measured)) : "-") << " |\n";
  }
  out << "| **all phases** | " << ms(s.seconds) << " | | " << ms(kernels) << " | | "
      << percent(relative_error(s.seconds, kernels)) << " |\n"
      << "| **step (wall time)** | " << ms(s.seconds) << " | | " << ms(m.step_seconds) << " | | **"
      << percent(relative_error(s.seconds, m.step_seconds)) << "** |\n\n"
      << "Wall time outside the phases (host work between them): "
      << ms(m.step_seconds - kernels) << " ms per step.\n\n";
}

// One table row per curve: latency and bandwidth at the smallest and largest calibrated call.
void curve_table(std::ostream& out, const CurveTable& table) {
  out << "| kernel | cache | latency µs | GB/s smallest | GB/s largest |\n|---|---|---|---|---|\n";
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l) {
      const CostCurve& curve = table[v][l];
      out << "| " << name(static_cast<KernelVariant>(v)) << " | " << name(static_cast<CacheLevel>(l)) << " | "
          << fixed(1e6 * curve.latency(), 2) << " | " << fixed(curve.bandwidth(0) / 1e9, 1) << " | "
          << fixed(curve.bandwidth(curve.points().back().bytes) / 1e9, 1) << " |\n";
    }
  out << "\n";
}

// The Poisson iterations timed whole, when calibrated.
void iteration_table(std::ostream& out, const Calibration& c) {
  if (std::none_of(c.iteration_curves.begin(), c.iteration_curves.end(), [](const auto& u) { return u.has_value(); }))
    return;
  out << "Poisson iterations timed whole (a solve of many iterations less one of few, per iteration):\n\n"
      << "| unit | latency µs per call | KB per iteration, smallest | calls | µs | KB, largest | calls | µs |"
         " GB/s largest |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  for (int u = 0; u < iteration_unit_count; ++u) {
    const auto& curve = c.iteration_curves[u];
    if (!curve) continue;
    const CostPoint& small = curve->points().front();
    const CostPoint& large = curve->points().back();
    out << "| " << name(static_cast<IterationUnit>(u)) << " | " << fixed(1e6 * curve->latency(), 2) << " | "
        << fixed(small.bytes / 1e3, 1) << " | " << fixed(small.calls, 1) << " | " << fixed(1e6 * small.seconds, 2)
        << " | " << fixed(large.bytes / 1e3, 1) << " | " << fixed(large.calls, 1) << " | "
        << fixed(1e6 * large.seconds, 2) << " | " << fixed(large.bytes / large.seconds / 1e9, 1) << " |\n";
  }
  out << "\n";
}

// The batched iteration's cost per byte by the systems it runs over, when calibrated.
void width_table(std::ostream& out, const Calibration& c) {
  if (c.batched_widths.empty()) return;
  out << "The FFT path's batched iteration over fewer systems than its batch: seconds per byte against the "
         "whole batch's on the same plane:\n\n| plane rows | systems | cost per byte |\n|---|---|---|\n";
  for (const WidthPoint& p : c.batched_widths)
    out << "| " << fixed(p.rows, 0) << " | " << fixed(p.systems, 0) << " | " << fixed(p.cost, 2) << " |\n";
  out << "\n";
  if (c.batched_amg_blocks.empty()) return;
  out << "An AMG block's V-cycle, per byte against the whole Jacobi batch:";
  const char* separator = " ";
  for (const WidthPoint& p : c.batched_amg_blocks) {
    out << separator << fixed(p.cost, 2) << " on " << fixed(p.rows, 0) << " rows (a block of " << fixed(p.systems, 0)
        << ")";
    separator = ", ";
  }
  out << ".\n\n";
}

void calibration_section(std::ostream& out, const Calibration& c, const std::string& path) {
  out << "## Calibration\n\n" << "File `" << path << "`, measured " << c.date << " on " << c.device.description
      << " by build " << c.build.git << " (" << c.build.compiler << ", " << c.build.build_type << "); copy bandwidth "
      << fixed(c.copy_gb_per_s, 1) << " GB/s; caches: private " << fixed(c.device.private_cache_bytes / 1048576.0, 1)
      << " MiB, last level " << fixed(c.device.cache_bytes / 1048576.0, 0) << " MiB of which a run keeps "
      << fixed(c.retained_cache_bytes() / 1048576.0, 0) << " MiB (measured: half of an operand kept after that much other "
      << "traffic); pointwise compute ceiling "
      << fixed(c.pointwise_flops_per_second / 1e9, 1) << " Gflop/s; host round trip of a call "
      << "returning a value " << fixed(1e6 * c.sync_seconds, 2) << " µs.\n\nCalls launched one by one:\n\n";
  curve_table(out, c.curves);
  if (c.graph_curves) {
    out << "Calls replayed from a kernel graph (the Poisson iterations when the solver replays graphs):\n\n";
    curve_table(out, *c.graph_curves);
  }
  iteration_table(out, c);
  width_table(out, c);
  if (!c.communication) return;
  out << "Communication (halo transport " << c.communication->transport << "): one halo update of one vector and "
      << "one allreduce of one double, the slowest rank's.\n\n| ranks | neighbours | halo latency µs | GB/s per "
      << "neighbour at 8 KB | at largest | allreduce µs |\n|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < c.communication->halo.size(); ++i) {
    const HaloCurve& h = c.communication->halo[i];
    out << "| " << h.ranks << " | " << h.neighbours << " | " << fixed(1e6 * h.curve.latency(), 2) << " | "
        << fixed(h.curve.bandwidth(8192) / 1e9, 2) << " | " << fixed(h.curve.bandwidth(h.curve.points().back().bytes) / 1e9, 2)
        << " | " << fixed(1e6 * c.communication->allreduce[i].seconds, 2) << " |\n";
  }
  out << "\n";
}

// Achieved bandwidth per kernel kind over the step, against the copy bandwidth; a figure that cannot
// be (out of cache, above it) is named as such rather than printed as a bandwidth.
void bandwidth_section(std::ostream& out, const PredictionReport& r) {
  const auto kinds = achieved_bandwidth(r);
  if (kinds.empty()) return;
  out << "## Achieved bandwidth per kernel kind (" << (r.measured ? "measured" : "predicted") << " time; copy bandwidth "
      << fixed(r.calibration.copy_gb_per_s, 1) << " GB/s)\n\n| kind | GB per step | ms per step | GB/s | standing |\n"
      << "|---|---|---|---|---|\n";
  for (const AchievedBandwidth& a : kinds)
    out << "| " << name(a.kind) << " | " << fixed(a.bytes * 1e-9, 4) << " | " << ms(a.seconds) << " | "
        << (a.standing == BandwidthStanding::impossible ? "-" : fixed(a.gb_per_s, 1)) << " | " << name(a.standing)
        << " |\n";
  out << "\n";
}

}  // namespace

std::string fixed(double x, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << x;
  return s.str();
}

void print_report_markdown(std::ostream& out, const PredictionReport& r) {
  out << "# Time-step prediction: " << r.case_name << "\n\n" << r.case_description << "\n\nMesh " << r.cells
      << " cells, " << r.faces << " faces" << (r.les ? ", LES on" : "") << "; device " << r.calibration.device.description
      << ". Model (thesis §2.5.4, docs/cost-model.md): every counted kernel call costs latency + bytes / bandwidth(size), "
         "from the calibration below.\n\n";
  counts_section(out, r);
  breakdown_section(out, r.scaling.front(), "Predicted time per step, one device");
  if (r.ranks > 1 && static_cast<int>(r.scaling.size()) >= r.ranks)
    breakdown_section(out, r.scaling[r.ranks - 1], "Predicted time per step, " + std::to_string(r.ranks) + " devices");
  if (!r.rank_profiles.empty()) communication_section(out, r);
  scaling_section(out, r);
  if (r.what_if) breakdown_section(out, *r.what_if_step, "What if: " + r.what_if->device.description);
  if (r.measured) measured_section(out, r);
  bandwidth_section(out, r);
  if (!r.notes.empty()) {
    out << "## Where the model may miss\n\n";
    for (const std::string& n : r.notes) out << "- " << n << "\n";
    out << "\n";
  }
  calibration_section(out, r.calibration, r.calibration_path);
}

void write_report_markdown(const std::string& path, const PredictionReport& r) {
  std::ofstream out(path);
  if (!out) throw file_error(path, "cannot open for writing");
  print_report_markdown(out, r);
  if (!out) throw file_error(path, "write failed");
}

}  // namespace miniapp::predict
