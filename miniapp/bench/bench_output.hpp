#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "miniapp/bench/kernel_bench.hpp"

namespace miniapp::bench {

// Everything one `miniapp bench kernels` run measured.
struct KernelBenchReport {
  std::string device;           // Executor::description()
  std::string date;             // ISO 8601, UTC
  double copy_gb_per_s = 0;     // see copy_bandwidth
  int repeat = 0;
  std::vector<KernelRecord> records;
};

// Table: kernel, mesh, matrix, rows, nnz, time (µs), bytes, GB/s, fraction of the copy bandwidth.
void print_table(std::ostream& out, const KernelBenchReport& report);

// The same numbers (and the stored entries of each format) as JSON; throws miniapp::Error naming
// the file when it cannot be written.
void write_json(const std::string& path, const KernelBenchReport& report);

// Writes `document` to `path`, indented, with invalid UTF-8 (a driver's device string) replaced;
// throws miniapp::Error naming the file and `option` (the option that named it) when it cannot.
void write_json_file(const std::string& path, const nlohmann::ordered_json& document, const std::string& option);

// The current UTC time as "YYYY-MM-DDTHH:MM:SSZ".
std::string utc_now();

}  // namespace miniapp::bench
