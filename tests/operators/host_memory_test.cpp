// Large host blocks are advised onto transparent huge pages (core/host_memory.hpp): the CPU executor's
// arrays carry the advice in the kernel's view of the process's mappings; small blocks are left alone.
// The CPU executor's transfers of large arrays, split over the threads, copy every byte.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/host_memory.hpp"
#include "operators/backend/array.hpp"

namespace miniapp {
namespace {

// The VmFlags of the mapping of /proc/self/smaps that holds `address`, empty when none does.
std::string mapping_flags(const void* address) {
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t first = 0, last = 0;
    char dash = 0;
    std::istringstream range(line);
    if (line.find(':') > line.find(' ') && range >> std::hex >> first >> dash >> last && dash == '-') {
      inside = first <= a && a < last;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line.substr(8);
    }
  }
  return {};
}

bool has_flag(const std::string& flags, const std::string& flag) {
  std::istringstream words(flags);
  for (std::string w; words >> w;)
    if (w == flag) return true;
  return false;
}

TEST_CASE("A large CPU array is advised onto transparent huge pages", "[host-memory]") {
  void* probe = std::malloc(std::size_t{16} << 20);
  const bool supported = advise_huge_pages(probe, std::size_t{16} << 20);
  std::free(probe);
  if (!supported) {
    WARN("this kernel takes no MADV_HUGEPAGE advice (no transparent huge pages): nothing to check");
    return;
  }
  Vector large(Executor::cpu(), index_t{8} << 20);  // 64 MiB
  const std::string flags = mapping_flags(large.data() + (index_t{4} << 20));
  INFO("VmFlags:" << flags);
  REQUIRE_FALSE(flags.empty());
  CHECK(has_flag(flags, "hg"));
}

TEST_CASE("A block smaller than two huge pages gets no advice", "[host-memory]") {
  void* small = std::malloc(std::size_t{3} << 20);
  CHECK_FALSE(advise_huge_pages(small, std::size_t{3} << 20));
  std::free(small);
  CHECK_FALSE(advise_huge_pages(nullptr, std::size_t{64} << 20));
}

TEST_CASE("A CPU transfer of a large array, split over the threads, copies every entry", "[host-memory]") {
  // Five and a bit of the 1 MiB pieces it is split into: the last one partial.
  std::vector<double> host((std::size_t{5} << 17) + 3);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = 0.5 * static_cast<double>(i) + 1.0;
  const Vector on_executor = Vector::from_host(Executor::cpu(), host);
  CHECK(on_executor.to_host() == host);
}

}  // namespace
}  // namespace miniapp
