#pragma once
#include <stdexcept>
#include <string>

namespace miniapp {

// The one exception type of the project: its message is complete (what, where, why) and is printed
// once by main before a non-zero exit.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An input file that cannot be used; the message starts with the file name.
inline Error file_error(const std::string& path, const std::string& why) { return Error(path + ": " + why); }

}  // namespace miniapp
