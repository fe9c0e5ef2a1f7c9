#include <iomanip>
#include <ostream>

#include "miniapp/run/run_loop.hpp"

namespace miniapp::run {
namespace {

double per_step(std::uint64_t calls, long steps) { return steps > 0 ? static_cast<double>(calls) / steps : 0.0; }

// "12.0 calls, 3.4 MB, 2.0 host reads" per step.
void print_kernels_per_step(const KernelCounters& k, double steps, std::ostream& out) {
  const KernelTally t = k.total();
  out << std::fixed << std::setprecision(1) << static_cast<double>(t.calls) / steps << " calls, " << t.bytes / steps / 1e6
      << " MB, " << static_cast<double>(k.host_reads()) / steps << " host reads";
}

}  // namespace

void print_summary(const Simulation& sim, const RunSummary& s, std::ostream& out) {
  const double steps = static_cast<double>(std::max(s.steps, 1L));
  const double iterations = static_cast<double>(s.poisson_iterations) / steps;
  const double observers = s.observer_seconds();
  const double rest = s.wall_seconds - s.step_seconds - observers - s.output_seconds - s.checkpoint_seconds;
  out << "\nsummary   " << s.steps << " steps in " << std::fixed << std::setprecision(2) << s.wall_seconds
      << " s (time step " << s.step_seconds << " s, observers " << observers << " s, output files "
      << s.output_seconds << " s, checkpoints " << s.checkpoint_seconds << " s)\n"
      << "          " << std::setprecision(1) << 1e3 * s.step_seconds / steps << " ms/step, "
      << std::setprecision(1) << 1e9 * s.step_seconds / steps / sim.cells() << " ns per step per cell, "
      << std::setprecision(1) << iterations << " Poisson iterations per step\n"
      << "          observers " << (s.step_seconds > 0 ? 100 * observers / s.step_seconds : 0.0)
      << " % of the time step: diagnostics rows " << std::setprecision(2) << s.row_seconds
      << " s, statistics samples " << s.sample_seconds << " s; the rest of the loop " << rest << " s\n";
  KernelCounters step_kernels;
  for (const auto& k : s.phase_kernels) step_kernels += k;
  out << "          kernels per step: the step's ";
  print_kernels_per_step(step_kernels, steps, out);
  out << "; diagnostics and samples ";
  print_kernels_per_step(s.monitor_kernels, steps, out);
  out << "\n" << std::defaultfloat;
  sim.scheme->pressure_solver().print_report(out);
  out << "\n";

  out << "kernel calls per step by sub-step (this code | thesis Table 2.1; Poisson solve per iteration)\n"
      << "  sub-step              spmv          axpy          dot           pointwise\n";
  const auto column = [&](double ours, int thesis) {
    out << std::setw(6) << std::fixed << std::setprecision(1) << ours << " | " << std::setw(3) << thesis << "  ";
  };
  for (int p = 0; p < time::phase_count; ++p) {
    const auto& k = s.phase_kernels[p];
    // The solve is reported per iteration, as in the table.
    const double scale = p == static_cast<int>(time::Phase::poisson_solve) && iterations > 0 ? iterations : 1.0;
    out << "  " << std::left << std::setw(20) << name(static_cast<time::Phase>(p)) << std::right;
    column(per_step(k.tally(KernelKind::spmv).calls, s.steps) / scale, time::thesis_table_2_1[p].spmv);
    column(per_step(k.tally(KernelKind::axpy).calls, s.steps) / scale, time::thesis_table_2_1[p].axpy);
    column(per_step(k.tally(KernelKind::dot).calls, s.steps) / scale, time::thesis_table_2_1[p].dot);
    out << std::setw(6) << per_step(k.tally(KernelKind::pointwise).calls + k.tally(KernelKind::copy).calls, s.steps) / scale
        << "\n";
  }
  out << std::defaultfloat << "\nkernel counters of the whole run (time steps and observers)\n";
  sim.exec.counters().print(out);
}

}  // namespace miniapp::run
