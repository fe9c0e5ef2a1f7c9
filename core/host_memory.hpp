#pragma once
#include <cstddef>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

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

// "12.3 GB available" or "available memory unknown", for messages.
inline std::string describe_host_memory_available() {
  const auto bytes = host_memory_available();
  if (!bytes) return "available memory unknown";
  std::ostringstream out;
  out.precision(3);
  out << static_cast<double>(*bytes) * 1e-9 << " GB available";
  return out.str();
}

// The message for a std::bad_alloc, whose size is not known where it is caught.
inline std::string out_of_host_memory_message() {
  return "out of host memory: an allocation failed (" + describe_host_memory_available() +
         " now); use a coarser mesh, more ranks on more nodes, or a machine with more memory";
}

}  // namespace miniapp
