#pragma once
#include <cxxopts.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "miniapp/case/case_config.hpp"

namespace miniapp::cli {

// The case a subcommand names by its positional CASE argument (a shipped name or a .toml file), with
// the --set `overrides` and a --backend option applied, parsed and validated; its warnings go to
// `warnings` (on an MPI job, rank 0's stderr: every rank parses the same case). `path` receives the
// case file's path.
cases::CaseConfig load_case_argument(const cxxopts::ParseResult& args, std::vector<std::string> overrides,
                                     std::string& path, std::ostream& warnings = std::cerr);

}  // namespace miniapp::cli
