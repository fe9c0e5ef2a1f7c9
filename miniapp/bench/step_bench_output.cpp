// Table and JSON of `miniapp bench step`.
#include <cstdint>
#include <iomanip>
#include <ostream>

#include <nlohmann/json.hpp>

#include "miniapp/bench/bench_output.hpp"
#include "miniapp/bench/step_bench.hpp"

namespace miniapp::bench {

namespace {

// One H100's memory as sold (80 GB = 80·10⁹ bytes); the CUDA context and the fixed-size scratch
// take a little of it, so the cell count is an upper bound.
constexpr double device_bytes = 80e9;

double largest_cells(const StepBenchReport& r) { return device_bytes / r.bytes_per_cell(); }

std::uint64_t host_reads(const StepBenchReport& r) {
  std::uint64_t reads = 0;
  for (const KernelCounters& phase : r.phases) reads += phase.host_reads();
  return reads;
}

void print_phases(std::ostream& out, const StepBenchReport& r) {
  out << "\nper phase and step: bytes (timed steps), kernel time (profiled steps), bandwidth-bound time\n\n"
      << std::left << std::setw(18) << "phase" << std::right << std::setw(9) << "calls" << std::setw(14) << "bytes"
      << std::setw(13) << "kernel (ms)" << std::setw(12) << "bound (ms)" << "\n";
  for (int p = 0; p < time::phase_count; ++p) {
    const KernelTally timed = r.phases[p].total();
    const KernelTally profiled = r.profiled_phases[p].total();
    out << std::left << std::setw(18) << time::name(static_cast<time::Phase>(p)) << std::right << std::fixed
        << std::setprecision(1) << std::setw(9) << static_cast<double>(timed.calls) / r.steps << std::scientific
        << std::setprecision(3) << std::setw(14) << timed.bytes / r.steps << std::fixed << std::setw(13)
        << 1e3 * profiled.seconds / r.steps << std::setw(12) << 1e3 * timed.bytes / r.steps / (r.copy_gb_per_s * 1e9)
        << "\n";
  }
  KernelCounters total;
  for (const KernelCounters& phase : r.profiled_phases) total += phase;
  out << "\nkernel time by kind (profiled), share of the profiled step time:";
  for (int k = 0; k < kernel_kind_count; ++k) {
    const KernelTally t = total.tally(static_cast<KernelKind>(k));
    out << "  " << name(static_cast<KernelKind>(k)) << " " << std::setprecision(1)
        << 100 * t.seconds / r.profiled_wall_seconds << "%";
  }
  out << "\n";
}

// Whether the traced and profiled steps repeated the timed ones: the shares below divide the traced
// kernels' time by the timed steps' wall time, which is fair only for the same work.
void print_replays(std::ostream& out, const StepBenchReport& r) {
  out << "replayed steps            "
      << (r.replays_identical ? "the profiled (and traced) steps re-ran the timed ones from the same state: the same "
                                "Poisson iterations, fields bitwise equal at the end\n"
                              : "the profiled or traced steps, re-run from the timed steps' start, ended with other "
                                "fields or iterations: they did other work than the timed steps\n");
}

// The CUPTI timeline of the traced steps: the share the targets speak of, measured without
// synchronising between kernels, and where the rest of the step went.
void print_timeline(std::ostream& out, const StepBenchReport& r) {
  if (!r.timeline) {
    out << "device timeline           not traced ("
        << (r.trace_note.empty() ? "CUDA backend with CUPTI only" : r.trace_note) << ")\n";
    return;
  }
  const KernelTimeline& t = *r.timeline;
  const double idle = r.idle_share_of_step();
  out << std::fixed << std::setprecision(1) << "SpMV+AXPY+DOT share       " << 100 * r.core_share_of_step()
      << "% of the step time (target >= 95%): their kernels' time on the device's timeline (CUPTI) over the "
      << (r.replays_identical ? "untraced time of the same steps\n"
                              : "untraced time of the timed steps, which did other work (see the replayed steps)\n")
      << "  device idle             " << 100 * idle << "% of the step time (its time less the timeline's busy time)"
      << (idle < 0 ? ": negative, the traced kernels took longer than the untraced steps; the share above is not valid"
                   : "")
      << "\n  of the kernels' time     " << 100 * r.core_share_of_kernels()
      << "% (the paper's measure: the rest is the other operations; the device's idle time not counted)\n"
      << "  of the traced step time  " << 100 * r.core_share_of_traced_step() << "%: the tracer slows the step to "
      << std::setprecision(3) << 1e3 * r.traced_wall_seconds / r.steps << " ms, adding time between kernels\n"
      << "  timeline, share of the traced step time:";
  const double wall = r.traced_wall_seconds;
  for (int k = 0; k < kernel_kind_count; ++k)
    out << "  " << name(static_cast<KernelKind>(k)) << " " << std::setprecision(1) << 100 * t.seconds[k] / wall << "%";
  out << "  unclassified " << 100 * t.unclassified_seconds / wall << "%  device idle "
      << 100 * (1 - t.busy_seconds / wall) << "%\n";
  for (const std::string& kernel : t.unclassified) out << "  unclassified kernel: " << kernel << "\n";
  out << "  kernels by time per step (calls, us):";
  for (const KernelTimeline::Named& n : t.by_name)
    out << "  " << n.name << " " << std::setprecision(1) << static_cast<double>(n.count) / r.steps << ", "
        << 1e6 * n.seconds / r.steps;
  out << "\n";
}

}  // namespace

void print_step_report(std::ostream& out, const StepBenchReport& r) {
  const double fraction = r.bound_step_seconds() / r.step_seconds();
  out << "case " << r.case_name << ": " << r.cells << " cells; device " << r.device << "; copy bandwidth "
      << std::fixed << std::setprecision(1) << r.copy_gb_per_s << " GB/s; " << r.steps << " timed steps\n\n"
      << std::setprecision(3) << "time per step             " << 1e3 * r.step_seconds() << " ms (profiling off)\n"
      << std::scientific << "bytes per step            " << r.bytes_per_step() << " (kernel cost model)\n"
      << std::fixed << "bandwidth-bound time      " << 1e3 * r.bound_step_seconds() << " ms (bytes / copy bandwidth)\n"
      << std::setprecision(1) << "fraction bound/measured   " << 100 * fraction << "% (target >= 70%); "
      << 100 * r.useful_bound_step_seconds() / r.step_seconds()
      << "% without the bytes of the iterations queued past the stop\n"
      << "SpMV+AXPY+DOT, profiled   " << 100 * r.core_kernel_share()
      << "% of the profiled step time (each kernel synchronised); profiled step " << std::setprecision(3)
      << 1e3 * r.profiled_wall_seconds / r.steps << " ms\n"
      << std::setprecision(1) << "PCG iterations per step   "
      << static_cast<double>(r.poisson_iterations) / r.steps << " (queued "
      << static_cast<double>(r.queued_iterations) / r.steps << "); host reads per step "
      << static_cast<double>(host_reads(r)) / r.steps << "\n"
      << std::setprecision(2) << "PCG iteration             " << 1e6 * r.iteration_seconds()
      << " us of kernels (profiled); bandwidth-bound " << 1e6 * r.bound_iteration_seconds() << " us; ratio "
      << r.iteration_seconds() / r.bound_iteration_seconds()
      << " (each kernel synchronised, so an upper bound; the target <= 1.25 is for the iteration run as it runs: "
         "bench kernels --pcg)\n"
      << std::setprecision(0) << "device memory             " << r.bytes_per_cell() << " bytes per cell (slice height "
      << r.slice_height << "; target < 2500); 80 GB holds " << std::scientific << std::setprecision(3)
      << largest_cells(r) << " cells\n";
  print_replays(out, r);
  print_timeline(out, r);
  print_phases(out, r);
  out << std::defaultfloat;
}

namespace {

nlohmann::ordered_json timeline_json(const StepBenchReport& r) {
  if (!r.timeline) return r.trace_note.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json{{"note", r.trace_note}};
  nlohmann::ordered_json seconds;
  for (int k = 0; k < kernel_kind_count; ++k) seconds[std::string(name(static_cast<KernelKind>(k)))] = r.timeline->seconds[k];
  nlohmann::ordered_json by_name = nlohmann::ordered_json::array();
  for (const KernelTimeline::Named& n : r.timeline->by_name)
    by_name.push_back({{"kernel", n.name}, {"calls", n.count}, {"seconds", n.seconds}});
  return {{"traced_step_seconds", r.traced_wall_seconds / r.steps},
          {"spmv_axpy_dot_share", r.core_share_of_step()},
          {"device_idle_share", r.idle_share_of_step()},
          {"spmv_axpy_dot_share_of_kernels", r.core_share_of_kernels()},
          {"spmv_axpy_dot_share_of_traced_step", r.core_share_of_traced_step()},
          {"kernel_seconds", std::move(seconds)},
          {"unclassified_seconds", r.timeline->unclassified_seconds},
          {"unclassified_kernels", r.timeline->unclassified},
          {"busy_seconds", r.timeline->busy_seconds},
          {"by_name", by_name},
          {"records", r.timeline->records}};
}

}  // namespace

void write_step_json(const std::string& path, const StepBenchReport& r) {
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  for (int p = 0; p < time::phase_count; ++p) {
    nlohmann::ordered_json& phase = phases.emplace_back(
        nlohmann::ordered_json{{"phase", time::name(static_cast<time::Phase>(p))}});
    for (int k = 0; k < kernel_kind_count; ++k) {
      const auto kind = static_cast<KernelKind>(k);
      phase[std::string(name(kind))] = {{"calls", r.phases[p].tally(kind).calls},
                                        {"bytes", r.phases[p].tally(kind).bytes},
                                        {"profiled_seconds", r.profiled_phases[p].tally(kind).seconds}};
    }
  }
  write_json_file(
      path,
      {{"benchmark", "step"}, {"device", r.device}, {"date", r.date}, {"case", r.case_name}, {"cells", r.cells},
       {"steps", r.steps}, {"copy_bandwidth_gb_per_s", r.copy_gb_per_s}, {"step_seconds", r.step_seconds()},
       {"bytes_per_step", r.bytes_per_step()}, {"bound_step_seconds", r.bound_step_seconds()},
       {"bound_fraction", r.bound_step_seconds() / r.step_seconds()},
       {"useful_bound_fraction", r.useful_bound_step_seconds() / r.step_seconds()},
       {"queued_iterations_per_step", static_cast<double>(r.queued_iterations) / r.steps},
       {"host_reads_per_step", static_cast<double>(host_reads(r)) / r.steps},
       {"profiled_step_seconds", r.profiled_wall_seconds / r.steps}, {"spmv_axpy_dot_share", r.core_kernel_share()},
       {"pcg_iterations_per_step", static_cast<double>(r.poisson_iterations) / r.steps},
       {"pcg_iteration_seconds", r.iteration_seconds()}, {"pcg_iteration_bound_seconds", r.bound_iteration_seconds()},
       {"memory_bytes", r.memory_bytes}, {"bytes_per_cell", r.bytes_per_cell()}, {"slice_height", r.slice_height},
       {"largest_cells_80gb", largest_cells(r)}, {"replays_identical", r.replays_identical},
       {"timeline", timeline_json(r)}, {"phases", std::move(phases)}},
      "--json");
}

}  // namespace miniapp::bench
