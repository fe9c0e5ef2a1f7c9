#include "miniapp/output/folder.hpp"

#include <system_error>

#include "core/error.hpp"

namespace miniapp::output {

void create_folder(const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw file_error(dir.string(), "cannot create this folder: " + error.message());
}

}  // namespace miniapp::output
