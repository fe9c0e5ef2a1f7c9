// KernelTrace over CUPTI's activity API: CUPTI fills buffers that it asks for and hands back, and the
// records (start and end time on the device, and the kernel's name) are kept until stop() sums them.
// Without CUPTI (no CUDA backend) only available() answers.
#include "miniapp/bench/kernel_trace.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "core/error.hpp"

#ifdef MINIAPP_WITH_CUPTI
#include <cuda_runtime_api.h>
#include <cupti.h>
#endif

namespace miniapp::bench {

#ifdef MINIAPP_WITH_CUPTI
namespace {

#if CUDART_VERSION >= 13000
using KernelRecord = CUpti_ActivityKernel10;
using CopyRecord = CUpti_ActivityMemcpy6;
#else
using KernelRecord = CUpti_ActivityKernel9;
using CopyRecord = CUpti_ActivityMemcpy5;
#endif

struct Record {
  std::uint64_t start = 0, end = 0;
  const std::string* name = nullptr;  // the mangled name; null for a copy
};

// What a kernel's mangled name says, worked out once per name.
struct KernelName {
  std::optional<KernelKind> kind;
  std::string base;
};

// CUPTI calls back from its own thread: the records, the names they point to and the first error
// live here, under a lock.
struct Collected {
  std::mutex lock;
  std::vector<Record> records;
  std::map<std::string, KernelName, std::less<>> names;
  std::string error;
};
Collected& collected() {
  static Collected c;
  return c;
}

constexpr std::size_t buffer_bytes = 8u << 20;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_bytes));
  *size = *buffer ? buffer_bytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  Collected& c = collected();
  {
    const std::lock_guard guard(c.lock);
    CUpti_Activity* activity = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &activity) == CUPTI_SUCCESS) {
      if (activity->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
        const auto* k = reinterpret_cast<const KernelRecord*>(activity);
        auto named = c.names.find(std::string_view(k->name));
        if (named == c.names.end())
          named = c.names.emplace(k->name, KernelName{backend_kernel_kind(k->name), kernel_base_name(k->name)}).first;
        c.records.push_back({k->start, k->end, &named->first});
      } else if (activity->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
        const auto* m = reinterpret_cast<const CopyRecord*>(activity);
        c.records.push_back({m->start, m->end, nullptr});
      }
    }
    std::size_t dropped = 0;
    cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped);
    if (dropped > 0 && c.error.empty()) c.error = std::to_string(dropped) + " CUPTI records dropped";
  }
  std::free(buffer);
}

void check(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  throw Error(std::string("kernel trace: ") + call + " failed: " + (text ? text : "unknown CUPTI error"));
}

// Sum of the records' lengths, their intervals merged first: the time the device was doing something.
double busy_seconds(std::vector<Record>& records) {
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.start < b.start; });
  double busy = 0;
  std::uint64_t from = 0, to = 0;
  for (const Record& r : records) {
    if (r.start > to) {
      busy += static_cast<double>(to - from);
      from = r.start;
      to = r.end;
    } else {
      to = std::max(to, r.end);
    }
  }
  busy += static_cast<double>(to - from);
  return 1e-9 * busy;
}

}  // namespace

bool KernelTrace::available() { return true; }

KernelTrace::KernelTrace() {
  {
    Collected& c = collected();
    const std::lock_guard guard(c.lock);
    c.records.clear();
    c.error.clear();
  }
  check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "cuptiActivityRegisterCallbacks");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable(CONCURRENT_KERNEL)");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityEnable(MEMCPY)");
  running_ = true;
}

KernelTrace::~KernelTrace() {
  if (!running_) return;
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityFlushAll(1);
}

void KernelTrace::discard() {
  check(cuptiActivityFlushAll(1), "cuptiActivityFlushAll");
  Collected& c = collected();
  const std::lock_guard guard(c.lock);
  c.records.clear();
}

KernelTimeline KernelTrace::stop() {
  check(cuptiActivityFlushAll(1), "cuptiActivityFlushAll");
  check(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityDisable(CONCURRENT_KERNEL)");
  check(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityDisable(MEMCPY)");
  running_ = false;
  Collected& c = collected();
  const std::lock_guard guard(c.lock);
  if (!c.error.empty()) throw Error("kernel trace: " + c.error + "; the timeline would be incomplete");
  KernelTimeline t;
  std::set<std::string> unclassified;
  std::map<std::string, KernelTimeline::Named> by_name;
  for (const Record& r : c.records) {
    const double seconds = 1e-9 * static_cast<double>(r.end - r.start);
    const KernelName copy{KernelKind::copy, "copy"};
    const KernelName& name = r.name ? c.names.at(*r.name) : copy;
    if (name.kind) {
      t.seconds[static_cast<int>(*name.kind)] += seconds;
    } else {
      t.unclassified_seconds += seconds;
      unclassified.insert(*r.name);
    }
    KernelTimeline::Named& n = by_name[name.base];
    n.name = name.base;
    n.count += 1;
    n.seconds += seconds;
  }
  t.records = static_cast<long long>(c.records.size());
  t.busy_seconds = busy_seconds(c.records);
  t.unclassified.assign(unclassified.begin(), unclassified.end());
  for (auto& [name, n] : by_name) t.by_name.push_back(n);
  std::sort(t.by_name.begin(), t.by_name.end(), [](const auto& a, const auto& b) { return a.seconds > b.seconds; });
  c.records.clear();
  return t;
}

#else

bool KernelTrace::available() { return false; }
KernelTrace::KernelTrace() { throw Error("kernel trace: this build has no CUPTI (it comes with the CUDA backend)"); }
KernelTrace::~KernelTrace() = default;
void KernelTrace::discard() {}
KernelTimeline KernelTrace::stop() { return {}; }

#endif

}  // namespace miniapp::bench
