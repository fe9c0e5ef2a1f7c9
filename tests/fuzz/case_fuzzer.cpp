// libFuzzer target: any bytes as a case file. The parser may refuse them with miniapp::Error (its
// one way to say no); anything else (a crash, a sanitizer report, another exception, a hang) is a
// finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/error.hpp"
#include "miniapp/case/case_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    // The stem "fuzz" is the name the file must declare; mesh.file paths resolve against /nonexistent.
    miniapp::cases::parse_case(text, "/nonexistent/fuzz.toml");
  } catch (const miniapp::Error&) {
  }
  return 0;
}
