#pragma once

// Subcommands of the miniapp binary. Each parses its own options (cxxopts), answers --help, and
// returns the process exit code; errors are thrown as miniapp::Error and reported once by main.
namespace miniapp::cli {

int case_command(int argc, char** argv);     // miniapp run [CASE] ...: run a case
int list_command(int argc, char** argv);     // miniapp list: the shipped cases
int mesh_command(int argc, char** argv);     // miniapp mesh ...: build or read a mesh, print its report
int poisson_command(int argc, char** argv);  // miniapp poisson ...: Poisson solve, preconditioners compared
int predict_command(int argc, char** argv);  // miniapp predict [CASE] ...: predicted time per step
int bench_command(int argc, char** argv);    // miniapp bench kernels ...: kernel benchmarks
int bench_ranks_command(int argc, char** argv);  // miniapp bench ranks ...: multi-rank benchmarks (mpirun)

}  // namespace miniapp::cli
