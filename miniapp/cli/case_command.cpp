// miniapp run [CASE]: runs a case file or a shipped case (default: "default") to its end.
#include <cxxopts.hpp>
#include <iostream>
#include <sstream>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/cli/case_arguments.hpp"
#include "miniapp/cli/command_line.hpp"
#include "miniapp/cli/commands.hpp"
#include "miniapp/cli/rank_main.hpp"
#include "miniapp/run/run_loop.hpp"
#include "miniapp/run/selftest.hpp"
#include "miniapp/run/stop_signals.hpp"
#include "parallel/halo_exchange.hpp"

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
      ("comm", "halo transport between ranks: mpi (through host buffers), mpi-cuda-aware or nccl",
       cxxopts::value<std::string>()->default_value("mpi"))
      ("quiet", "no progress lines")
      ("selftest", "check the operators on the case's mesh (closure, Omega G = -(M Gamma)^T, L symmetric, "
                   "C skew-symmetric), print each check and exit; status 1 when one fails")
      ("h,help", "print this help");
  options.parse_positional({"case"});
  options.positional_help("[CASE]");
  return options;
}

// Runs on every rank of an MPI job (mpirun -np P miniapp run ...; one rank without mpirun). Rank 0
// prints; each rank writes its own VTK piece and checkpoint.
int run_case(int argc, char** argv, const parallel::Communicator& world) {
  std::vector<char*> rest;
  std::vector<std::string> overrides = take_set_overrides(argc, argv, rest);
  auto options = case_options();
  const auto args = parse_command_line(options, static_cast<int>(rest.size()), rest.data());
  if (!args) return 0;
  std::string path;
  cases::CaseConfig config;
  std::ostringstream silent;
  world.run_collectively(
      [&] { config = load_case_argument(*args, std::move(overrides), path, world.rank() == 0 ? std::cerr : silent); });

  std::ostream& out = world.rank() == 0 ? std::cout : silent;
  out << "case      " << config.name << ": " << config.description << "\n";
  if (args->count("selftest")) return run::run_selftest(config, path, out) ? 0 : 1;
  const auto transport = parallel::parse_transport((*args)["comm"].as<std::string>());
  run::Simulation sim =
      run::set_up_simulation(std::move(config), path, out, world.size() > 1 ? &world : nullptr, transport);
  out << "backend   " << sim.exec.description() << (world.size() > 1 ? " on every rank" : "") << "\n"
      << "mesh      " << sim.global_cells << " cells";
  if (world.size() > 1) out << " on " << world.size() << " ranks, halos by --comm " << parallel::name(transport);
  else out << ", " << sim.mesh.face_count() << " faces";
  out << "\noutput    " << sim.config.output.directory << "\n";
  run::RunOptions run_options;
  if (args->count("restart")) run_options.restart_dir = (*args)["restart"].as<std::string>();
  run_options.quiet = args->count("quiet") > 0;
  const run::RunSummary summary = run::run_simulation(sim, run_options, out);
  if (world.rank() == 0 && summary.steps > 0) run::print_summary(sim, summary, out);
  // A signal after the last step, on any rank: the run is complete, and says so once.
  const auto late_signal = static_cast<int>(
      world.allreduce(static_cast<long long>(run::StopSignals::received()), parallel::ReduceOp::max));
  if (summary.stop_signal == 0 && late_signal != 0)
    out << "note      " << run::signal_name(late_signal) << " arrived after the last step: the run is complete\n";
  // The shell's convention for a process ended by a signal: the run did not reach its end.
  return summary.stop_signal != 0 ? 128 + summary.stop_signal : 0;
}

}  // namespace

int case_command(int argc, char** argv) {
  // A stop signal from here to the end of MPI's teardown is kept for the run loop, or reported at the
  // end, rather than ending the process: a rank that a scheduler signals while it waits in
  // MPI_Finalize for the others would otherwise fail a complete run.
  const run::StopSignals stop_signals;
  return run_on_ranks(argc, argv, "run", [&](const parallel::Communicator& world) { return run_case(argc, argv, world); });
}

}  // namespace miniapp::cli
