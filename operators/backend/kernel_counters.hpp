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

// The form of an SpMV call, which decides its speed per byte beside its size: one vector through sELL
// (the time loop's most common call), several vectors through one pass of the matrix (spmv_multi),
// several vectors read interleaved by one output (spmv_interleaved), CSR. The cost model prices each
// form on its own calibrated curve.
enum class SpmvForm : std::uint8_t { sell, sell_vectors, sell_interleaved, csr };
inline constexpr int spmv_form_count = 4;
std::string_view name(SpmvForm form);

struct KernelTally {
  std::uint64_t calls = 0;
  double bytes = 0;    // minimal DRAM traffic: every stored matrix entry, index and vector once
  double flops = 0;
  double seconds = 0;  // see Executor::set_profiling
};

// Per-kind totals; every front-end kernel call adds to the counters of its executor.
class KernelCounters {
 public:
  // An SpMV added here is of form SpmvForm::sell; add_spmv names another.
  void add(KernelKind kind, double bytes, double flops, double seconds) {
    if (kind == KernelKind::spmv) add_spmv(SpmvForm::sell, bytes, flops, seconds);
    else add_to(tallies_[static_cast<int>(kind)], bytes, flops, seconds);
  }
  void add_spmv(SpmvForm form, double bytes, double flops, double seconds) {
    add_to(tallies_[static_cast<int>(KernelKind::spmv)], bytes, flops, seconds);
    add_to(spmv_forms_[static_cast<int>(form)], bytes, flops, seconds);
  }
  // A call that returned a value to the host (a DOT's result, a copy to the host): on an asynchronous
  // backend it waits for the device, a round trip the cost model prices apart.
  void add_host_read() { host_reads_ += 1; }
  std::uint64_t host_reads() const { return host_reads_; }
  const KernelTally& tally(KernelKind kind) const { return tallies_[static_cast<int>(kind)]; }
  // The SpMV calls of one form (their sum over the forms is tally(KernelKind::spmv)).
  const KernelTally& spmv_tally(SpmvForm form) const { return spmv_forms_[static_cast<int>(form)]; }
  KernelTally total() const;
  void reset() {
    tallies_ = {};
    spmv_forms_ = {};
    host_reads_ = 0;
  }
  // The calls made since `earlier` (a copy of these counters taken before them).
  KernelCounters since(const KernelCounters& earlier) const {
    KernelCounters d;
    for (int k = 0; k < kernel_kind_count; ++k) d.tallies_[k] = difference(tallies_[k], earlier.tallies_[k]);
    for (int f = 0; f < spmv_form_count; ++f) d.spmv_forms_[f] = difference(spmv_forms_[f], earlier.spmv_forms_[f]);
    d.host_reads_ = host_reads_ - earlier.host_reads_;
    return d;
  }
  KernelCounters& operator+=(const KernelCounters& o) {
    for (int k = 0; k < kernel_kind_count; ++k) tallies_[k] = sum(tallies_[k], o.tallies_[k]);
    for (int f = 0; f < spmv_form_count; ++f) spmv_forms_[f] = sum(spmv_forms_[f], o.spmv_forms_[f]);
    host_reads_ += o.host_reads_;
    return *this;
  }
  // These calls made `times` times over.
  KernelCounters repeated(std::uint64_t times) const {
    KernelCounters r;
    for (int k = 0; k < kernel_kind_count; ++k) r.tallies_[k] = times_over(tallies_[k], times);
    for (int f = 0; f < spmv_form_count; ++f) r.spmv_forms_[f] = times_over(spmv_forms_[f], times);
    r.host_reads_ = host_reads_ * times;
    return r;
  }
  // Table of calls, bytes, flops, seconds and GB/s per kind.
  void print(std::ostream& out) const;

 private:
  static void add_to(KernelTally& t, double bytes, double flops, double seconds) {
    t.calls += 1;
    t.bytes += bytes;
    t.flops += flops;
    t.seconds += seconds;
  }
  static KernelTally difference(const KernelTally& a, const KernelTally& b) {
    return {a.calls - b.calls, a.bytes - b.bytes, a.flops - b.flops, a.seconds - b.seconds};
  }
  static KernelTally sum(const KernelTally& a, const KernelTally& b) {
    return {a.calls + b.calls, a.bytes + b.bytes, a.flops + b.flops, a.seconds + b.seconds};
  }
  static KernelTally times_over(const KernelTally& a, std::uint64_t times) {
    const double t = static_cast<double>(times);
    return {a.calls * times, a.bytes * t, a.flops * t, a.seconds * t};
  }

  std::array<KernelTally, kernel_kind_count> tallies_{};
  std::array<KernelTally, spmv_form_count> spmv_forms_{};
  std::uint64_t host_reads_ = 0;
};

}  // namespace miniapp
