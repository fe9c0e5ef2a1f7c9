// miniapp bench ranks: the multi-rank benchmarks (overlap of halo exchange and SpMV, PCG iteration,
// whole time step), run under mpirun with one rank per GPU.
#include <iostream>
#include <sstream>

#include "miniapp/bench/rank_bench.hpp"
#include "miniapp/cli/case_arguments.hpp"
#include "miniapp/cli/command_line.hpp"
#include "miniapp/cli/commands.hpp"
#include "miniapp/cli/rank_main.hpp"

namespace miniapp::cli {
namespace {

cxxopts::Options rank_bench_options() {
  cxxopts::Options options(
      "miniapp bench ranks",
      "Run under mpirun (one rank per GPU). For each size, on a z-slab 7-point Laplacian that every rank\n"
      "generates for itself: SpMV computation alone, halo update alone, overlapped and sequential, the\n"
      "fraction of the halo time hidden, and one Jacobi-PCG iteration. With CASE, also the time per step\n"
      "of that case (its mesh partitioned by METIS). Times are medians of the slowest rank.");
  options.add_options()
      ("case", "also time the steps of this case (name or .toml)", cxxopts::value<std::string>())
      ("set", "override a value of CASE (repeatable)", cxxopts::value<std::string>())
      ("backend", "cpu, cuda or auto", cxxopts::value<std::string>()->default_value("auto"))
      ("comm", "halo transport: mpi, mpi-cuda-aware or nccl", cxxopts::value<std::string>()->default_value("mpi"))
      ("cells-per-rank", "slab Laplacian sizes per rank", cxxopts::value<std::string>()->default_value("1e5,1e6"))
      ("repeat", "timed repetitions (and PCG iterations)", cxxopts::value<std::string>()->default_value("50"))
      ("steps", "timed steps of CASE (after 2 untimed)", cxxopts::value<std::string>()->default_value("10"))
      ("json", "also write the results to this JSON file (rank 0)", cxxopts::value<std::string>())
      ("h,help", "print this help");
  options.parse_positional({"case"});
  options.positional_help("[CASE]");
  return options;
}

int rank_bench(int argc, char** argv, const parallel::Communicator& world) {
  std::vector<char*> rest;
  std::vector<std::string> overrides = take_set_overrides(argc, argv, rest);
  auto options = rank_bench_options();
  const auto args = parse_command_line(options, static_cast<int>(rest.size()), rest.data());
  if (!args) return 0;
  bench::RankBenchSettings s;
  s.backend = (*args)["backend"].as<std::string>();
  s.transport = parallel::parse_transport((*args)["comm"].as<std::string>());
  for (const std::string& item : split_list((*args)["cells-per-rank"].as<std::string>())) {
    const long long cells = parse_integer(item, "cells-per-rank");
    if (cells < 8 || cells > 1'000'000'000) throw Error("--cells-per-rank: " + item + " is outside [8, 1e9]");
    s.cells_per_rank.push_back(cells);
  }
  s.repeat = option_index(*args, "repeat", 1, 100'000);
  s.steps = option_index(*args, "steps", 1, 100'000);
  if (args->count("case")) {
    overrides.push_back("output.fields=[]");  // timing runs write no VTK
    s.step_case = load_case_argument(*args, std::move(overrides), s.step_case_path);
  }
  std::ostringstream silent;
  std::ostream& log = world.rank() == 0 ? std::cerr : silent;
  const bench::RankBenchReport report = bench::run_rank_bench(s, log);
  if (world.rank() == 0) {
    bench::print_table(std::cout, report);
    if (args->count("json")) bench::write_json((*args)["json"].as<std::string>(), report);
  }
  return 0;
}

}  // namespace

int bench_ranks_command(int argc, char** argv) {
  return run_on_ranks(argc, argv, "bench ranks",
                      [&](const parallel::Communicator& world) { return rank_bench(argc, argv, world); });
}

}  // namespace miniapp::cli
