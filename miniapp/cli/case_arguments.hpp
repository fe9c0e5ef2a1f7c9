#pragma once
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "miniapp/case/case_config.hpp"

namespace miniapp::cli {

// The case a subcommand names by its positional CASE argument (a shipped name or a .toml file), with
// the --set `overrides` and a --backend option applied, parsed and validated; its warnings go to
// stderr. `path` receives the case file's path.
cases::CaseConfig load_case_argument(const cxxopts::ParseResult& args, std::vector<std::string> overrides,
                                     std::string& path);

}  // namespace miniapp::cli
