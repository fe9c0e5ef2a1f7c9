// miniapp: incompressible DNS/LES on unstructured meshes with operators as sparse matrices.
#include <cxxopts.hpp>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string_view>

#include "miniapp/cli/commands.hpp"
#include "miniapp/cli/host_allocation.hpp"
#include "miniapp/predict/build_info.hpp"
#include "core/error.hpp"
#include "core/host_memory.hpp"

namespace {

struct Subcommand {
  std::string_view name;
  std::string_view summary;
  int (*entry)(int, char**);
};

constexpr Subcommand subcommands[] = {
    {"run", "run a case (default: the default case, see 'list')", miniapp::cli::case_command},
    {"list", "list the shipped cases", miniapp::cli::list_command},
    {"mesh", "build or read a mesh and print its statistics and checks", miniapp::cli::mesh_command},
    {"poisson", "solve a Poisson problem, compare preconditioners (Jacobi, AIP, AMG)", miniapp::cli::poisson_command},
    {"predict", "predict the time per step from calibrated kernel costs", miniapp::cli::predict_command},
    {"bench", "kernel benchmarks (bench kernels --backend cpu|cuda)", miniapp::cli::bench_command},
};

void print_usage(std::ostream& out) {
  out << "usage: miniapp <command> [options]\n\ncommands:\n";
  for (const auto& s : subcommands) out << "  " << s.name << std::string(8 - s.name.size(), ' ') << s.summary << "\n";
  out << "\n'miniapp <command> --help' describes each command; 'miniapp --version' names the build.\n";
}

// The build, as a calibration file records it (miniapp/predict/build_info.cmake).
void print_version(std::ostream& out) {
  namespace b = miniapp::predict::build_info;
  out << "miniapp " << b::git << " (" << b::compiler << ", " << b::build_type << ", CUDA "
      << (b::cuda ? "on" : "off") << ")\n";
}

}  // namespace

int main(int argc, char** argv) {
  // Progress reaches a log file line by line, as on a terminal: a run killed early leaves its lines.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  miniapp::cli::keep_freed_host_memory();
  if (argc < 2) {
    print_usage(std::cerr);
    return 2;
  }
  const std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    print_usage(std::cout);
    return 0;
  }
  if (command == "--version") {
    print_version(std::cout);
    return 0;
  }
  for (const auto& s : subcommands) {
    if (s.name != command) continue;
    try {
      // The subcommand sees its own name as argv[0].
      return s.entry(argc - 1, argv + 1);
    } catch (const miniapp::Error& e) {
      std::cerr << "miniapp " << command << ": error: " << e.what() << "\n";
    } catch (const cxxopts::exceptions::exception& e) {
      std::cerr << "miniapp " << command << ": error: " << e.what() << " (see 'miniapp " << command << " --help')\n";
    } catch (const std::bad_alloc&) {
      // Which allocation failed is not known here; what the machine had left is.
      std::cerr << "miniapp " << command << ": error: " << miniapp::out_of_host_memory_message(miniapp::cli::last_failed_allocation_bytes()) << "\n";
    } catch (const std::exception& e) {
      std::cerr << "miniapp " << command << ": internal error: " << e.what() << "\n";
    }
    return 1;
  }
  std::cerr << "miniapp: unknown command '" << command << "'\n\n";
  print_usage(std::cerr);
  return 2;
}
