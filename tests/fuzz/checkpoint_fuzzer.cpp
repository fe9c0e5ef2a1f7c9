// libFuzzer target: any bytes as rank 0's checkpoint file of step 1, read as a restart reads one
// (the header checked, the payload parsed as it is read, its checksum taken on the way). A refusal is
// miniapp::Error (a mismatched mesh too); anything else is a finding, and so is an allocation the
// file's own size does not bound (libFuzzer's -malloc_limit_mb). The reader takes a folder: the
// bytes go to a file there first.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "miniapp/output/checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("miniapp_checkpoint_fuzz_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  std::ofstream(miniapp::output::checkpoint_path(dir, 1, 0), std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  try {
    // A file that passes every check is read whole, then refused as written on another mesh.
    miniapp::output::read_checkpoint(dir, 1, 0, 1, miniapp::output::MeshFingerprint{});
  } catch (const miniapp::Error&) {
  }
  return 0;
}
