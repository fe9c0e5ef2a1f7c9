#include "operators/backend/kernel_counters.hpp"

#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>

namespace miniapp {

std::string_view name(KernelKind kind) {
  switch (kind) {
    case KernelKind::spmv: return "spmv";
    case KernelKind::axpy: return "axpy";
    case KernelKind::dot: return "dot";
    case KernelKind::pointwise: return "pointwise";
    case KernelKind::copy: return "copy";
  }
  return "unknown";
}

std::string_view name(SpmvForm form) {
  switch (form) {
    case SpmvForm::sell: return "sell";
    case SpmvForm::sell_vectors: return "sell_vectors";
    case SpmvForm::sell_interleaved: return "sell_interleaved";
    case SpmvForm::csr: return "csr";
  }
  return "unknown";
}

KernelTally KernelCounters::total() const {
  KernelTally all;
  for (const KernelTally& t : tallies_) all = sum(all, t);
  return all;
}

namespace {

void print_row(std::ostream& out, std::string_view kind, const KernelTally& t) {
  // Bandwidth is undefined without time (asynchronous kernels not profiled): print a dash.
  std::ostringstream bandwidth;
  if (t.seconds > 0) bandwidth << std::fixed << std::setprecision(1) << t.bytes / t.seconds * 1e-9;
  else bandwidth << '-';
  out << std::left << std::setw(10) << kind << std::right << std::setw(10) << t.calls << std::fixed
      << std::setprecision(3) << std::setw(12) << t.bytes * 1e-9 << std::setw(12) << t.flops * 1e-9
      << std::setprecision(4) << std::setw(12) << t.seconds << std::setw(10) << bandwidth.str() << '\n';
}

}  // namespace

void KernelCounters::print(std::ostream& out) const {
  const auto flags = out.flags();
  const auto precision = out.precision();
  out << std::left << std::setw(10) << "kind" << std::right << std::setw(10) << "calls" << std::setw(12) << "GB moved"
      << std::setw(12) << "GFLOP" << std::setw(12) << "seconds" << std::setw(10) << "GB/s" << '\n';
  for (int k = 0; k < kernel_kind_count; ++k) print_row(out, name(static_cast<KernelKind>(k)), tallies_[k]);
  print_row(out, "total", total());
  out.flags(flags);
  out.precision(precision);
}

}  // namespace miniapp
