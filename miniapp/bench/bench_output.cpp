#include "miniapp/bench/bench_output.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <ostream>

namespace miniapp::bench {

// Names and descriptions are ours except the device string and library error messages: quotes and
// backslashes escaped, control characters replaced by spaces.
std::string json_string(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  }
  return quoted + "\"";
}

namespace {

// Our kernels beside the vendor libraries' (CUDA runs): times and their ratio.
void print_baselines(std::ostream& out, const KernelBenchReport& report) {
  out << "\nvendor baselines: same arrays, same timing, results checked equal to ours (relative 1e-12) first\n\n";
  out << std::left << std::setw(10) << "kernel" << std::setw(14) << "mesh" << std::right << std::setw(11) << "ours (us)"
      << "  " << std::left << std::setw(20) << "library" << std::right << std::setw(13) << "library (us)"
      << std::setw(15) << "library / ours" << "\n";
  for (const KernelRecord& r : report.records) {
    if (r.baseline.empty()) continue;
    out << std::left << std::setw(10) << r.kernel << std::setw(14) << r.mesh << std::right << std::setw(11)
        << std::setprecision(1) << r.seconds * 1e6 << "  " << std::left << std::setw(20) << r.baseline << std::right;
    if (!r.baseline_failure.empty()) {
      out << "  FAILED (log: BASELINE FAILED)\n";
      continue;
    }
    out << std::setw(13) << r.baseline_seconds * 1e6 << std::setw(14) << std::setprecision(2)
        << r.baseline_seconds / r.seconds << "x\n";
  }
  out << "\n'library / ours' above 1 means our kernel is faster.\n";
}

}  // namespace

void print_table(std::ostream& out, const KernelBenchReport& report) {
  out << "device " << report.device << "; copy bandwidth " << std::fixed << std::setprecision(1)
      << report.copy_gb_per_s << " GB/s; median of " << report.repeat << " calls\n\n";
  out << std::left << std::setw(10) << "kernel" << std::setw(14) << "mesh" << std::right << std::setw(10) << "rows"
      << std::setw(11) << "nnz" << std::setw(11) << "time (us)" << std::setw(13) << "bytes" << std::setw(9) << "GB/s"
      << std::setw(8) << "of copy" << "\n";
  for (const KernelRecord& r : report.records) {
    out << std::left << std::setw(10) << r.kernel << std::setw(14) << r.mesh << std::right << std::setw(10) << r.rows
        << std::setw(11) << r.nnz << std::setw(11) << std::setprecision(1) << r.seconds * 1e6 << std::setw(13)
        << std::setprecision(0) << r.bytes << std::setw(9) << std::setprecision(1) << r.gb_per_s() << std::setw(7)
        << std::setprecision(0) << 100 * r.gb_per_s() / report.copy_gb_per_s << "%\n";
  }
  out << "\n'of copy' above 100% means the kernel's data stayed in cache between calls.\n";
  const bool baselines = std::any_of(report.records.begin(), report.records.end(),
                                     [](const KernelRecord& r) { return !r.baseline.empty(); });
  if (baselines) print_baselines(out, report);
  out << std::defaultfloat;
}

void write_json(const std::string& path, const KernelBenchReport& report) {
  std::ofstream out(path);
  if (!out) throw file_error(path, std::string("cannot open for writing (given by --json): ") + std::strerror(errno));
  out << std::setprecision(10) << "{\n  \"benchmark\": \"kernels\",\n  \"device\": " << json_string(report.device)
      << ",\n  \"date\": " << json_string(report.date) << ",\n  \"copy_bandwidth_gb_per_s\": " << report.copy_gb_per_s
      << ",\n  \"repeat\": " << report.repeat << ",\n  \"results\": [";
  for (std::size_t i = 0; i < report.records.size(); ++i) {
    const KernelRecord& r = report.records[i];
    out << (i ? "," : "") << "\n    {\"kernel\": " << json_string(r.kernel) << ", \"mesh\": " << json_string(r.mesh)
        << ", \"rows\": " << r.rows << ", \"nnz\": " << r.nnz << ", \"stored_entries\": " << r.stored_entries
        << ", \"seconds\": " << r.seconds << ", \"bytes\": " << r.bytes << ", \"gb_per_s\": " << r.gb_per_s()
        << ", \"fraction_of_copy\": " << r.gb_per_s() / report.copy_gb_per_s;
    if (!r.baseline.empty())
      out << ", \"baseline\": " << json_string(r.baseline) << ", \"baseline_seconds\": " << r.baseline_seconds
          << ", \"baseline_max_relative_difference\": " << r.baseline_difference
          << ", \"baseline_failure\": " << json_string(r.baseline_failure);
    out << "}";
  }
  out << "\n  ]\n}\n";
  if (!out) throw file_error(path, "write failed");
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
