// miniapp list: the shipped cases, one line each.
#include <cxxopts.hpp>
#include <iostream>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/cli/commands.hpp"
#include "core/error.hpp"

namespace miniapp::cli {

int list_command(int argc, char** argv) {
  cxxopts::Options options("miniapp list", "Lists the shipped cases of " + cases::cases_dir() +
                                               " (set MINIAPP_CASES_DIR to use another folder), one line each: "
                                               "name and description. 'miniapp run NAME' runs one.");
  options.add_options()("h,help", "print this help");
  const cxxopts::ParseResult args = options.parse(argc, argv);
  if (args.count("help") != 0) {
    std::cout << options.help();
    return 0;
  }
  if (!args.unmatched().empty()) throw Error("list takes no arguments (got '" + args.unmatched().front() + "')");
  cases::print_catalog(std::cout);
  return 0;
}

}  // namespace miniapp::cli
