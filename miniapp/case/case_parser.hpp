#pragma once
#include <span>
#include <string>
#include <string_view>

#include "miniapp/case/case_config.hpp"

namespace miniapp::cases {

// Reads the case file at `path`, applies the `--set section.key=value` overrides (in order, the last
// one of a key wins), parses it into typed structs and validates the whole input (validate_case).
// Nothing is allocated for the simulation here. Throws miniapp::Error with file, key, line and reason.
CaseConfig load_case(const std::string& path, std::span<const std::string> overrides = {});

// As load_case, from the text of a case file; `path` names it in messages, gives the expected case
// name (its stem) and the folder that mesh.file is relative to.
CaseConfig parse_case(std::string_view text, const std::string& path, std::span<const std::string> overrides = {});

}  // namespace miniapp::cases
