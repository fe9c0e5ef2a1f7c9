#pragma once
#include <filesystem>

namespace miniapp::output {

// Creates the folder `dir` and any missing parents; throws miniapp::Error naming the folder and why it
// cannot be made (a file in the way, no permission), instead of the standard library's exception.
void create_folder(const std::filesystem::path& dir);

}  // namespace miniapp::output
