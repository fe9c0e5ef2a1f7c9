#include "miniapp/cli/case_arguments.hpp"

#include <iostream>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"

namespace miniapp::cli {

cases::CaseConfig load_case_argument(const cxxopts::ParseResult& args, std::vector<std::string> overrides,
                                     std::string& path, std::ostream& warnings) {
  path = cases::resolve_case(args["case"].as<std::string>());
  if (args.count("backend")) overrides.push_back("numerics.backend=" + args["backend"].as<std::string>());
  cases::CaseConfig config = cases::load_case(path, overrides);
  for (const auto& w : config.warnings) warnings << "warning: " << w << "\n";
  return config;
}

}  // namespace miniapp::cli
