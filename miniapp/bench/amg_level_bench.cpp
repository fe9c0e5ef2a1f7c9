#include "miniapp/bench/amg_level_bench.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "miniapp/bench/random_vector.hpp"
#include "miniapp/bench/timing.hpp"

namespace miniapp::bench {

namespace {

constexpr int warmup_calls = 3;

double percent(double gb_per_s, double copy_gb_per_s) { return 100.0 * gb_per_s / copy_gb_per_s; }

}  // namespace

std::vector<LevelKernelRecord> time_level_kernels(const Executor& exec, const Amg& amg, int levels, int repeat) {
  const auto n = static_cast<index_t>(amg.level_sizes().front().rows);
  const Vector r = random_vector(exec, n, 21);
  Vector z = random_vector(exec, n, 22);
  amg.apply(r, z);  // every level's vectors now hold a cycle's values
  std::vector<LevelKernelRecord> records;
  const int count = std::min(levels, static_cast<int>(amg.level_sizes().size()));
  for (int l = 0; l < count; ++l) {
    const Amg::LevelCalls level = amg.level_calls(static_cast<std::size_t>(l), r, z);
    for (const Amg::KernelCall& call : level.calls) {
      const KernelCounters before = exec.counters();
      call.run();
      const KernelCounters one = exec.counters().since(before);
      if (one.total().calls != 1)
        throw Error("level kernels: '" + call.operation + "' made " + std::to_string(one.total().calls) +
                    " kernel calls, expected 1");
      LevelKernelRecord record{l, call.kernel, call.operation, call.rows, one.total().bytes, 0};
      record.seconds = median_call_seconds(exec, warmup_calls, repeat, call.run, bench_queued_calls);
      records.push_back(record);
    }
  }
  return records;
}

void print_level_kernels(std::ostream& out, const std::vector<LevelKernelRecord>& records,
                         const std::vector<Amg::LevelSize>& levels, double copy_gb_per_s, int repeat) {
  const auto flags = out.flags();
  const auto precision = out.precision();
  out << "\nAMG level kernels: each kernel call of a level's part of the V-cycle alone, on the level's own\n"
      << "operands; per call the median of " << repeat << " samples of " << bench_queued_calls
      << " calls queued back to back, the bytes by\nthe kernel counters; copy bandwidth " << std::fixed
      << std::setprecision(1) << copy_gb_per_s << " GB/s\n";
  for (auto begin = records.begin(); begin != records.end();) {
    const int level = begin->level;
    const auto end = std::find_if(begin, records.end(), [&](const LevelKernelRecord& r) { return r.level != level; });
    const Amg::LevelSize& size = levels.at(static_cast<std::size_t>(level));
    out << "\nlevel " << level << ": " << size.rows << " rows, " << size.nnz << " non-zeros"
        << (level + 1 == static_cast<int>(levels.size()) ? " (the coarsest)" : "") << "\n"
        << "  kernel     operation                      rows    bytes/call   median (us)      GB/s   % copy\n";
    double bytes = 0, seconds = 0;
    for (auto r = begin; r != end; ++r) {
      out << "  " << std::left << std::setw(10) << r->kernel << " " << std::setw(24) << r->operation << std::right
          << std::setw(11) << r->rows << std::scientific << std::setprecision(4) << std::setw(14) << r->bytes
          << std::fixed << std::setprecision(2) << std::setw(14) << 1e6 * r->seconds << std::setprecision(1)
          << std::setw(10) << r->gb_per_s() << std::setw(9) << percent(r->gb_per_s(), copy_gb_per_s) << "\n";
      bytes += r->bytes;
      seconds += r->seconds;
    }
    const double gb_per_s = bytes / seconds / 1e9;
    out << "  " << std::left << std::setw(35) << "all calls of the level" << std::right << std::setw(11) << ""
        << std::scientific << std::setprecision(4) << std::setw(14) << bytes << std::fixed << std::setprecision(2)
        << std::setw(14) << 1e6 * seconds << std::setprecision(1) << std::setw(10) << gb_per_s << std::setw(9)
        << percent(gb_per_s, copy_gb_per_s) << "\n";
    begin = end;
  }
  out.flags(flags);
  out.precision(precision);
}

nlohmann::ordered_json level_kernels_json(const std::vector<LevelKernelRecord>& records, double copy_gb_per_s) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const LevelKernelRecord& r : records)
    array.push_back({{"level", r.level}, {"kernel", r.kernel}, {"operation", r.operation}, {"rows", r.rows},
                     {"bytes", r.bytes}, {"seconds", r.seconds}, {"gb_per_s", r.gb_per_s()},
                     {"percent_of_copy", percent(r.gb_per_s(), copy_gb_per_s)}});
  return array;
}

}  // namespace miniapp::bench
