#pragma once
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

namespace miniapp {

// The host memory the kernel reports as available for new allocations (MemAvailable of
// /proc/meminfo), in bytes; empty where it cannot be read.
inline std::optional<std::size_t> host_memory_available() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key;
    std::size_t kilobytes = 0;
    if (fields >> key >> kilobytes && key == "MemAvailable:") return kilobytes * 1024;
  }
  return std::nullopt;
}

// Asks the kernel to back the whole 2 MiB pages inside the block [p, p + bytes) with transparent huge
// pages when they are first touched (the THP setting most distributions ship, `madvise`, gives them
// only where asked): one page fault and one page clear per 2 MiB instead of 512, which is most of the
// kernel's share of a start-up that fills gigabytes. Blocks too small to hold such a page are left
// alone. Returns whether the advice was taken (false also without THP support: an advice only).
inline bool advise_huge_pages(void* p, std::size_t bytes) {
  constexpr std::size_t huge_page = std::size_t{2} << 20;
  if (p == nullptr || bytes < 2 * huge_page) return false;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto first = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page * page;
  const auto last = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page * page;
  return madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE) == 0;
}

// The process's peak resident host memory so far (getrusage's ru_maxrss), in bytes.
inline std::size_t host_peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // kilobytes on Linux
}

// The address space the process may map (RLIMIT_AS: `ulimit -v`), in bytes; empty when unlimited.
inline std::optional<std::size_t> address_space_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  return static_cast<std::size_t>(limit.rlim_cur);
}

// "12.3 GB available" or "available memory unknown", for messages; with the process's address-space
// limit where one is set (then the limit, not the host, is what ran out).
inline std::string describe_host_memory_available() {
  const auto bytes = host_memory_available();
  std::ostringstream out;
  out.precision(3);
  if (bytes) out << static_cast<double>(*bytes) * 1e-9 << " GB available";
  else out << "available memory unknown";
  if (const auto limit = address_space_limit())
    out << "; the process's address space is limited to " << static_cast<double>(*limit) * 1e-9 << " GB (ulimit -v)";
  return out.str();
}

// The message for a std::bad_alloc: the size of the request that failed where it is known
// (`requested_bytes`, 0 where not), and what the host had left.
inline std::string out_of_host_memory_message(std::size_t requested_bytes = 0) {
  std::ostringstream what;
  what.precision(3);
  if (requested_bytes > 0)
    what << "an allocation of " << requested_bytes << " bytes (" << static_cast<double>(requested_bytes) * 1e-9
         << " GB) failed";
  else
    what << "an allocation failed";
  return "out of host memory: " + what.str() + " (" + describe_host_memory_available() +
         "); use a coarser mesh, more ranks on more nodes, or a machine with more memory";
}

}  // namespace miniapp
