#pragma once
// Helpers shared by the case tests: a small valid case as text, and edits of it.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "miniapp/case/case_parser.hpp"

namespace case_test {

// The path the test cases pretend to come from; its stem is the case name.
inline const std::string case_file = "some/folder/box.toml";

// A valid case: 4x4x1 hex box periodic in z, walls and a moving lid, 10 steps.
inline std::string valid_case() {
  return R"([case]
name = "box"
description = "test box"

[mesh]
generator = "hex"
cells = [4, 4, 1]
length = [1.0, 1.0, 0.25]
periodic = "z"

[physics]
re = 100

[boundary.xmin]
type = "wall"

[boundary.xmax]
type = "wall"

[boundary.ymin]
type = "wall"

[boundary.ymax]
type = "moving-wall"
velocity = [1, 0, 0]

[run]
max_steps = 10
)";
}

// `text` with the first occurrence of `from` replaced by `to` (which must occur).
inline std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// `text` with `line` inserted right after the line `header` (e.g. "[physics]"), or appended with the
// header when the text has no such section.
inline std::string add(std::string text, const std::string& header, const std::string& line) {
  const auto at = text.find(header + "\n");
  if (at == std::string::npos) return text + "\n" + header + "\n" + line + "\n";
  return text.insert(at + header.size() + 1, line + "\n");
}

inline miniapp::cases::CaseConfig parse(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return miniapp::cases::parse_case(text, case_file, overrides);
}

// The message of the miniapp::Error that parsing `text` throws; fails the test if none is thrown.
inline std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    parse(text, overrides);
  } catch (const miniapp::Error& e) {
    return e.what();
  }
  FAIL("no error for:\n" << text);
  return "";
}

// 1-based line of the first line of `text` containing `needle`.
inline int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

}  // namespace case_test
