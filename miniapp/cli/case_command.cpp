// miniapp run [CASE]: runs a case file or a shipped case (default: "default") to its end.
#include <cxxopts.hpp>
#include <iostream>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/cli/case_arguments.hpp"
#include "miniapp/cli/command_line.hpp"
#include "miniapp/cli/commands.hpp"
#include "miniapp/run/run_loop.hpp"

namespace miniapp::cli {
namespace {

cxxopts::Options case_options() {
  cxxopts::Options options("miniapp run",
                           "Runs CASE (a shipped case name, see 'miniapp list', or a .toml file; default: 'default')\n"
                           "to its end time or step count, writing VTK output, diagnostics.csv and checkpoints\n"
                           "to the case's output directory.");
  options.add_options()
      ("case", "case name or file", cxxopts::value<std::string>()->default_value("default"))
      ("set", "override a case value, e.g. --set physics.re=400 or --set mesh.cells=[32,32,1] (repeatable)",
       cxxopts::value<std::string>())
      ("backend", "override numerics.backend: auto, cpu or cuda", cxxopts::value<std::string>())
      ("restart", "continue from the checkpoint in this folder", cxxopts::value<std::string>())
      ("quiet", "no progress lines")
      ("h,help", "print this help");
  options.parse_positional({"case"});
  options.positional_help("[CASE]");
  return options;
}

}  // namespace

int case_command(int argc, char** argv) {
  std::vector<char*> rest;
  std::vector<std::string> overrides = take_set_overrides(argc, argv, rest);
  auto options = case_options();
  const auto args = parse_command_line(options, static_cast<int>(rest.size()), rest.data());
  if (!args) return 0;
  std::string path;
  cases::CaseConfig config = load_case_argument(*args, std::move(overrides), path);

  std::cout << "case      " << config.name << ": " << config.description << "\n";
  run::Simulation sim = run::set_up_simulation(std::move(config), path, std::cout);
  std::cout << "backend   " << sim.exec.description() << "\n"
            << "mesh      " << sim.mesh.cell_count() << " cells, " << sim.mesh.face_count() << " faces\n"
            << "output    " << sim.config.output.directory << "\n";
  run::RunOptions run_options;
  if (args->count("restart")) run_options.restart_dir = (*args)["restart"].as<std::string>();
  run_options.quiet = args->count("quiet") > 0;
  const run::RunSummary summary = run::run_simulation(sim, run_options, std::cout);
  run::print_summary(sim, summary, std::cout);
  return 0;
}

}  // namespace miniapp::cli
