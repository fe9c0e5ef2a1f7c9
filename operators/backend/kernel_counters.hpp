#pragma once
#include <array>
#include <cstdint>
#include <iosfwd>
#include <string_view>

namespace miniapp {

// Kernel classes of the cost model (thesis Table 2.1 and §2.5.4 count SpMV, AXPY and DOT; the rest
// are the "extra" column).
enum class KernelKind : std::uint8_t { spmv, axpy, dot, pointwise, copy };
inline constexpr int kernel_kind_count = 5;
std::string_view name(KernelKind kind);

struct KernelTally {
  std::uint64_t calls = 0;
  double bytes = 0;    // minimal DRAM traffic: every stored matrix entry, index and vector once
  double flops = 0;
  double seconds = 0;  // see Executor::set_profiling
};

// Per-kind totals; every front-end kernel call adds to the counters of its executor.
class KernelCounters {
 public:
  void add(KernelKind kind, double bytes, double flops, double seconds) {
    auto& t = tallies_[static_cast<int>(kind)];
    t.calls += 1;
    t.bytes += bytes;
    t.flops += flops;
    t.seconds += seconds;
  }
  // A call that returned a value to the host (a DOT's result, a copy to the host): on an asynchronous
  // backend it waits for the device, a round trip the cost model prices apart.
  void add_host_read() { host_reads_ += 1; }
  std::uint64_t host_reads() const { return host_reads_; }
  const KernelTally& tally(KernelKind kind) const { return tallies_[static_cast<int>(kind)]; }
  KernelTally total() const;
  void reset() {
    tallies_ = {};
    host_reads_ = 0;
  }
  // The calls made since `earlier` (a copy of these counters taken before them).
  KernelCounters since(const KernelCounters& earlier) const {
    KernelCounters d;
    for (int k = 0; k < kernel_kind_count; ++k) {
      const auto& now = tallies_[k];
      const auto& then = earlier.tallies_[k];
      d.tallies_[k] = {now.calls - then.calls, now.bytes - then.bytes, now.flops - then.flops,
                       now.seconds - then.seconds};
    }
    d.host_reads_ = host_reads_ - earlier.host_reads_;
    return d;
  }
  KernelCounters& operator+=(const KernelCounters& o) {
    for (int k = 0; k < kernel_kind_count; ++k) {
      tallies_[k].calls += o.tallies_[k].calls;
      tallies_[k].bytes += o.tallies_[k].bytes;
      tallies_[k].flops += o.tallies_[k].flops;
      tallies_[k].seconds += o.tallies_[k].seconds;
    }
    host_reads_ += o.host_reads_;
    return *this;
  }
  // These calls made `times` times over.
  KernelCounters repeated(std::uint64_t times) const {
    KernelCounters r;
    const double t = static_cast<double>(times);
    for (int k = 0; k < kernel_kind_count; ++k) {
      const auto& o = tallies_[k];
      r.tallies_[k] = {o.calls * times, o.bytes * t, o.flops * t, o.seconds * t};
    }
    r.host_reads_ = host_reads_ * times;
    return r;
  }
  // Table of calls, bytes, flops, seconds and GB/s per kind.
  void print(std::ostream& out) const;

 private:
  std::array<KernelTally, kernel_kind_count> tallies_{};
  std::uint64_t host_reads_ = 0;
};

}  // namespace miniapp
