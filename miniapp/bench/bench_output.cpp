#include "miniapp/bench/bench_output.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <ostream>

#include <nlohmann/json.hpp>

#include "miniapp/bench/timing.hpp"

namespace miniapp::bench {

namespace {

std::string matrix_column(const KernelRecord& r) { return r.matrix.empty() ? "-" : r.matrix; }

// Our kernels beside the vendor libraries' (CUDA runs): times and their ratio.
void print_baselines(std::ostream& out, const KernelBenchReport& report) {
  out << "\nvendor baselines: same arrays, same timing, results checked equal to ours (relative 1e-12) first\n\n";
  out << std::left << std::setw(14) << "kernel" << std::setw(14) << "mesh" << std::setw(12) << "matrix" << std::right
      << std::setw(11) << "ours (us)"
      << "  " << std::left << std::setw(20) << "library" << std::right << std::setw(13) << "library (us)"
      << std::setw(15) << "library / ours" << "\n";
  for (const KernelRecord& r : report.records) {
    if (r.baseline.empty()) continue;
    out << std::left << std::setw(14) << r.kernel << std::setw(14) << r.mesh << std::setw(12) << matrix_column(r)
        << std::right << std::setw(11)
        << std::setprecision(1) << r.seconds * 1e6 << "  " << std::left << std::setw(20) << r.baseline << std::right;
    if (!r.baseline_failure.empty()) {
      out << "  FAILED (log: BASELINE FAILED)\n";
      continue;
    }
    out << std::setw(13) << r.baseline_seconds * 1e6 << std::setw(14) << std::setprecision(2)
        << r.baseline_seconds / r.seconds << "x\n";
  }
  out << "\n'library / ours' above 1 means our kernel is faster.\n";
  // The comparisons the targets name: our sELL SpMV against each cuSPARSE SpMV of the same matrix.
  for (const KernelRecord& sell : report.records) {
    if (sell.kernel != "spmv_sell") continue;
    for (const KernelRecord& r : report.records)
      if (r.mesh == sell.mesh && r.matrix == sell.matrix && r.kernel.rfind("spmv_", 0) == 0 && !r.baseline.empty() &&
          r.baseline_failure.empty())
        out << "sELL SpMV (ours, " << sell.mesh << " " << sell.matrix << ") against " << r.baseline << ": "
            << std::setprecision(2) << r.baseline_seconds / sell.seconds << "x faster"
            << (r.kernel == "spmv_csr" ? " (target >= 1.3x)\n" : " (target >= 1x)\n");
  }
}

// The PCG iteration records (kernel "pcg_*"): time per iteration against the sum of its kernels'
// bandwidth-bound times (their bytes at the copy bandwidth).
void print_pcg(std::ostream& out, const KernelBenchReport& report) {
  out << "\nPCG iteration with AIP-1, unprofiled (device time of 56 minus 8 iterations, / 48); bound = bytes / copy "
         "bandwidth\n\n"
      << std::left << std::setw(16) << "kernel" << std::setw(14) << "mesh" << std::right << std::setw(12)
      << "us / iter" << std::setw(12) << "iter / s" << std::setw(12) << "bound (us)" << std::setw(15)
      << "measured/bound" << "\n";
  for (const KernelRecord& r : report.records) {
    if (r.kernel.rfind("pcg", 0) != 0) continue;
    const double bound = r.bytes / (report.copy_gb_per_s * 1e9);
    out << std::left << std::setw(16) << r.kernel << std::setw(14) << r.mesh << std::right << std::fixed
        << std::setprecision(1) << std::setw(12) << r.seconds * 1e6 << std::setw(12) << std::setprecision(0)
        << 1 / r.seconds << std::setw(12) << std::setprecision(1) << bound * 1e6 << std::setw(14)
        << std::setprecision(2) << r.seconds / bound << "x\n";
  }
  out << "\ntarget: measured/bound <= 1.25 (issue 4); pcg_aip1 replays CUDA Graphs, pcg_aip1_plain launches each "
         "kernel\n";
}

}  // namespace

void print_table(std::ostream& out, const KernelBenchReport& report) {
  out << "device " << report.device << "; copy bandwidth " << std::fixed << std::setprecision(1)
      << report.copy_gb_per_s << " GB/s; per call, median of " << report.repeat << " samples of "
      << bench_queued_calls << " calls queued back to back\n\n";
  out << std::left << std::setw(16) << "kernel" << std::setw(14) << "mesh" << std::setw(12) << "matrix" << std::right
      << std::setw(11) << "rows"
      << std::setw(11) << "nnz" << std::setw(11) << "time (us)" << std::setw(13) << "bytes" << std::setw(9) << "GB/s"
      << std::setw(8) << "of copy" << "\n";
  for (const KernelRecord& r : report.records) {
    out << std::left << std::setw(16) << r.kernel << std::setw(14) << r.mesh << std::setw(12) << matrix_column(r)
        << std::right << std::setw(11) << r.rows
        << std::setw(11) << r.nnz << std::setw(11) << std::setprecision(1) << r.seconds * 1e6 << std::setw(13)
        << std::setprecision(0) << r.bytes << std::setw(9) << std::setprecision(1) << r.gb_per_s() << std::setw(7)
        << std::setprecision(0) << 100 * r.gb_per_s() / report.copy_gb_per_s << "%\n";
  }
  out << "\n'of copy' above 100% means the kernel's data stayed in cache between calls.\n";
  const bool baselines = std::any_of(report.records.begin(), report.records.end(),
                                     [](const KernelRecord& r) { return !r.baseline.empty(); });
  if (baselines) print_baselines(out, report);
  const bool pcg = std::any_of(report.records.begin(), report.records.end(),
                               [](const KernelRecord& r) { return r.kernel.rfind("pcg", 0) == 0; });
  if (pcg) print_pcg(out, report);
  out << std::defaultfloat;
}

void write_json_file(const std::string& path, const nlohmann::ordered_json& document, const std::string& option) {
  std::ofstream out(path);
  if (!out) throw file_error(path, "cannot open for writing (given by " + option + "): " + std::strerror(errno));
  out << document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  if (!out) throw file_error(path, "write failed");
}

void write_json(const std::string& path, const KernelBenchReport& report) {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const KernelRecord& r : report.records) {
    nlohmann::ordered_json& entry = results.emplace_back(nlohmann::ordered_json{
        {"kernel", r.kernel}, {"mesh", r.mesh}, {"matrix", r.matrix}, {"rows", r.rows}, {"nnz", r.nnz},
        {"stored_entries", r.stored_entries}, {"seconds", r.seconds}, {"bytes", r.bytes},
        {"gb_per_s", r.gb_per_s()}, {"fraction_of_copy", r.gb_per_s() / report.copy_gb_per_s}});
    if (r.baseline.empty()) continue;
    entry["baseline"] = r.baseline;
    entry["baseline_seconds"] = r.baseline_seconds;
    entry["baseline_max_relative_difference"] = r.baseline_difference;
    entry["baseline_failure"] = r.baseline_failure;
  }
  write_json_file(path,
                  {{"benchmark", "kernels"}, {"device", report.device}, {"date", report.date},
                   {"copy_bandwidth_gb_per_s", report.copy_gb_per_s}, {"repeat", report.repeat},
                   {"results", std::move(results)}},
                  "--json");
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace miniapp::bench
