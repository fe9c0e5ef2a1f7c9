#pragma once

// Subcommands of the miniapp binary. Each parses its own options (cxxopts), answers --help, and
// returns the process exit code; errors are thrown as miniapp::Error and reported once by main.
namespace miniapp::cli {

int run_command(int argc, char** argv);    // miniapp run [CASE] ...: the default job / a case
int mesh_command(int argc, char** argv);   // miniapp mesh ...: build or read a mesh, print its report
int bench_command(int argc, char** argv);  // miniapp bench kernels ...: kernel benchmarks

}  // namespace miniapp::cli
