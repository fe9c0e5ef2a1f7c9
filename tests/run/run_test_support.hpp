#pragma once
// Shipped cases set up with overrides and run quietly into scratch folders.
#include <sstream>
#include <string>
#include <vector>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/run/run_loop.hpp"
#include "tests/output/scratch_dir.hpp"

namespace miniapp::run::test {

using output::test::ScratchDir;
using output::test::read_text;

// The shipped case `name` with `overrides` (section.key=value), ready to run; set-up lines discarded.
inline Simulation make_simulation(const std::string& name, const std::vector<std::string>& overrides) {
  const std::string path = cases::case_path(name);
  std::ostringstream log;
  return set_up_simulation(cases::load_case(path, overrides), path, log);
}

// Runs `sim` to its end without progress lines (from the checkpoint in `restart_dir` if given).
inline RunSummary run_quietly(Simulation& sim, const std::optional<std::string>& restart_dir = std::nullopt) {
  std::ostringstream out;
  RunOptions options;
  options.restart_dir = restart_dir;
  options.quiet = true;
  return run_simulation(sim, options, out);
}

// Runs `sim` quietly; the message of the miniapp::Error it stops with ("" when it runs to its end).
inline std::string stop_message(Simulation& sim) {
  try {
    run_quietly(sim);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace miniapp::run::test
