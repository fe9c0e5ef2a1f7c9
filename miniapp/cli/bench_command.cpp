// miniapp bench kernels | step: memory-bound kernels, and the whole time step, against the measured
// copy bandwidth.
#include <algorithm>
#include <array>
#include <iostream>
#include <string_view>

#include "miniapp/bench/bandwidth.hpp"
#include "miniapp/bench/bench_output.hpp"
#include "miniapp/bench/fft_bench.hpp"
#include "miniapp/bench/kernel_bench.hpp"
#include "miniapp/bench/step_bench.hpp"
#include "miniapp/cli/case_arguments.hpp"
#include "miniapp/cli/command_line.hpp"
#include "miniapp/cli/commands.hpp"

namespace miniapp::cli {

namespace {

cxxopts::Options kernel_bench_options() {
  cxxopts::Options options("miniapp bench kernels",
                           "Times SpMV (CSR, sELL) on the Laplacian and the convection operator of generated meshes,\n"
                           "AXPY and DOT, and compares their bandwidth (bytes from the kernel cost model) with the\n"
                           "measured copy bandwidth.");
  options.add_options()
      ("backend", "cpu or cuda", cxxopts::value<std::string>()->default_value("cpu"))
      ("mesh-sizes", "approximate cell counts", cxxopts::value<std::string>()->default_value("1e4,1e5,1e6"))
      ("meshes", "mesh kinds: any of hex, tet, prism", cxxopts::value<std::string>()->default_value("hex,tet,prism"))
      ("matrices", "any of laplacian (with AXPY, DOT and --pcg), convection",
       cxxopts::value<std::string>()->default_value("laplacian,convection"))
      ("repeat", "timed calls per kernel (the median is reported)", cxxopts::value<std::string>()->default_value("20"))
      ("json", "also write the results to this JSON file", cxxopts::value<std::string>())
      ("pcg", "also time one PCG iteration with AIP-1 per mesh (with and without CUDA Graphs)")
      ("h,help", "print this help");
  return options;
}

// The items of the comma-separated list given to `option`, each one of `known` by its `name`.
template <class T, std::size_t N, class Name>
std::vector<T> parse_names(const std::string& text, const char* option, const std::array<T, N>& known, Name name) {
  std::string spelled;
  for (std::size_t i = 0; i < N; ++i)
    spelled += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(name(known[i]));
  std::vector<T> items;
  for (const std::string& item : split_list(text)) {
    const auto it = std::find_if(known.begin(), known.end(), [&](T k) { return item == name(k); });
    if (it == known.end()) throw Error(std::string(option) + ": '" + item + "' is not " + spelled);
    items.push_back(*it);
  }
  if (items.empty()) throw Error(std::string(option) + ": the list is empty");
  return items;
}

bench::KernelBenchSettings parse_settings(const cxxopts::ParseResult& result) {
  bench::KernelBenchSettings settings;
  settings.sizes.clear();
  for (const std::string& item : split_list(result["mesh-sizes"].as<std::string>())) {
    const long long size = parse_integer(item, "mesh-sizes");
    if (size < 1 || size > 100'000'000) throw Error("--mesh-sizes: " + item + " is outside [1, 1e8]");
    settings.sizes.push_back(size);
  }
  if (settings.sizes.empty()) throw Error("--mesh-sizes: the list is empty");
  settings.meshes = parse_names(result["meshes"].as<std::string>(), "--meshes",
                                std::array{cases::MeshGenerator::hex, cases::MeshGenerator::tet,
                                           cases::MeshGenerator::prism},
                                [](cases::MeshGenerator k) { return cases::name(k); });
  settings.matrices =
      parse_names(result["matrices"].as<std::string>(), "--matrices",
                  std::array{bench::BenchMatrix::laplacian, bench::BenchMatrix::convection},
                  [](bench::BenchMatrix m) { return bench::name(m); });
  settings.repeat = option_index(result, "repeat", 1, 100'000);
  settings.pcg = result.count("pcg") > 0;
  if (settings.pcg && std::find(settings.matrices.begin(), settings.matrices.end(), bench::BenchMatrix::laplacian) ==
                          settings.matrices.end())
    throw Error("--pcg: PCG solves with the Laplacian; add laplacian to --matrices");
  return settings;
}

int kernels_command(int argc, char** argv) {
  auto options = kernel_bench_options();
  const auto result = parse_command_line(options, argc, argv);
  if (!result) return 0;
  const std::string backend = (*result)["backend"].as<std::string>();
  if (backend != "cpu" && backend != "cuda") throw Error("--backend: '" + backend + "' is not cpu or cuda");
  const bench::KernelBenchSettings settings = parse_settings(*result);
  const std::string json = result->count("json") ? (*result)["json"].as<std::string>() : "";
  const Executor exec = Executor::from_name(backend);

  bench::KernelBenchReport report;
  report.device = exec.description();
  report.date = bench::utc_now();
  report.repeat = settings.repeat;
  std::cerr << "measuring copy bandwidth on " << report.device << "\n";
  report.copy_gb_per_s = bench::copy_bandwidth(exec, 9);
  report.records = bench::run_kernel_bench(exec, settings, std::cerr);
  bench::print_table(std::cout, report);
  if (!json.empty()) bench::write_json(json, report);
  return 0;
}

cxxopts::Options step_bench_options() {
  cxxopts::Options options("miniapp bench step",
                           "Times whole time steps of CASE (a shipped case name or a .toml file; default: 'default')\n"
                           "and compares them with the bandwidth-bound time of their kernels' bytes at the measured\n"
                           "copy bandwidth; then per-kernel times with profiling on. Writes no case output.");
  options.add_options()
      ("case", "case name or file", cxxopts::value<std::string>()->default_value("default"))
      ("set", "override a case value, e.g. --set mesh.cells=[32,32,32] (repeatable)", cxxopts::value<std::string>())
      ("backend", "override numerics.backend: auto, cpu or cuda", cxxopts::value<std::string>())
      ("steps", "timed steps (run again from the same state, profiled, and traced on CUDA)", cxxopts::value<std::string>()->default_value("10"))
      ("warmup", "untimed steps first", cxxopts::value<std::string>()->default_value("3"))
      ("json", "also write the results to this JSON file", cxxopts::value<std::string>())
      ("h,help", "print this help");
  options.parse_positional({"case"});
  options.positional_help("[CASE]");
  return options;
}

int step_command(int argc, char** argv) {
  std::vector<char*> rest;
  std::vector<std::string> overrides = take_set_overrides(argc, argv, rest);
  auto options = step_bench_options();
  const auto args = parse_command_line(options, static_cast<int>(rest.size()), rest.data());
  if (!args) return 0;
  bench::StepBenchSettings settings;
  settings.steps = option_index(*args, "steps", 1, 1'000'000);
  settings.warmup = option_index(*args, "warmup", 0, 1'000'000);
  const std::string json = args->count("json") ? (*args)["json"].as<std::string>() : "";
  std::string path;
  cases::CaseConfig config = load_case_argument(*args, std::move(overrides), path);

  run::Simulation sim = run::set_up_simulation(std::move(config), path, std::cerr);
  std::cerr << run::settle_pressure_path(sim);
  const std::string device = sim.exec.description();
  std::cerr << "measuring copy bandwidth on " << device << "\n";
  const double copy_gb_per_s = bench::copy_bandwidth(sim.exec, 9);
  std::cerr << "running " << settings.warmup << " + " << settings.steps
            << " steps, the timed ones again profiled (and traced, on CUDA with CUPTI)\n";
  bench::StepBenchReport report = bench::run_step_bench(sim, settings);
  report.device = device;
  report.date = bench::utc_now();
  report.copy_gb_per_s = copy_gb_per_s;
  bench::print_step_report(std::cout, report);
  if (!json.empty()) bench::write_step_json(json, report);
  return 0;
}

cxxopts::Options fft_bench_options() {
  cxxopts::Options options("miniapp bench fft",
                           "Times the FFT Poisson path (batched frequency PCG, auto-tuned preconditioner) against 3D\n"
                           "AIP-CG on extruded triangle meshes, the unified batched SpMV against one SpMV per frequency,\n"
                           "and writes the iterations per frequency (thesis Fig. 4.4).");
  options.add_options()
      ("backend", "cpu or cuda", cxxopts::value<std::string>()->default_value("cpu"))
      ("plane-cells", "approximate triangles per plane", cxxopts::value<std::string>()->default_value("100000"))
      ("nper", "numbers of planes (even)", cxxopts::value<std::string>()->default_value("64,128,256"))
      ("tolerance", "relative tolerance of every solve", cxxopts::value<std::string>()->default_value("1e-8"))
      ("repeat", "timed solves and SpMV calls (the median is reported)", cxxopts::value<std::string>()->default_value("5"))
      ("json", "also write the results to this JSON file", cxxopts::value<std::string>())
      ("csv", "write the iterations per frequency to this CSV file", cxxopts::value<std::string>())
      ("h,help", "print this help");
  return options;
}

bench::FftBenchSettings parse_fft_settings(const cxxopts::ParseResult& result) {
  bench::FftBenchSettings settings;
  settings.plane_cells.clear();
  for (const std::string& item : split_list(result["plane-cells"].as<std::string>())) {
    const long long cells = parse_integer(item, "plane-cells");
    if (cells < 8 || cells > 10'000'000) throw Error("--plane-cells: " + item + " is outside [8, 1e7]");
    settings.plane_cells.push_back(cells);
  }
  settings.planes.clear();
  for (const std::string& item : split_list(result["nper"].as<std::string>())) {
    const long long planes = parse_integer(item, "nper");
    if (planes < 4 || planes > 4096 || planes % 2 != 0) throw Error("--nper: " + item + " is not an even number in [4, 4096]");
    settings.planes.push_back(static_cast<index_t>(planes));
  }
  if (settings.plane_cells.empty() || settings.planes.empty()) throw Error("--plane-cells and --nper need values");
  settings.tolerance = option_double(result, "tolerance");
  if (!(settings.tolerance > 0 && settings.tolerance < 1)) throw Error("--tolerance must lie in (0, 1)");
  settings.repeat = option_index(result, "repeat", 1, 1000);
  return settings;
}

int fft_command(int argc, char** argv) {
  auto options = fft_bench_options();
  const auto result = parse_command_line(options, argc, argv);
  if (!result) return 0;
  const std::string backend = (*result)["backend"].as<std::string>();
  if (backend != "cpu" && backend != "cuda") throw Error("--backend: '" + backend + "' is not cpu or cuda");
  const bench::FftBenchSettings settings = parse_fft_settings(*result);
  const Executor exec = Executor::from_name(backend);
  bench::FftBenchReport report;
  report.device = exec.description();
  report.date = bench::utc_now();
  report.tolerance = settings.tolerance;
  report.repeat = settings.repeat;
  std::cerr << "measuring copy bandwidth on " << report.device << "\n";
  report.copy_gb_per_s = bench::copy_bandwidth(exec, 9);
  report.records = bench::run_fft_bench(exec, settings, std::cerr);
  bench::print_fft_report(std::cout, report);
  if (result->count("json")) bench::write_fft_json((*result)["json"].as<std::string>(), report);
  if (result->count("csv")) bench::write_fft_iterations_csv((*result)["csv"].as<std::string>(), report);
  return 0;
}

}  // namespace

int bench_command(int argc, char** argv) {
  const std::string_view usage =
      "usage: miniapp bench kernels [options]   ('miniapp bench kernels --help')\n"
      "       miniapp bench step [CASE] [options]   ('miniapp bench step --help')\n"
      "       miniapp bench fft [options]   ('miniapp bench fft --help')\n"
      "       mpirun -np P miniapp bench ranks [CASE] [options]   ('miniapp bench ranks --help')\n";
  if (argc < 2 || std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h") {
    (argc < 2 ? std::cerr : std::cout) << usage;
    return argc < 2 ? 2 : 0;
  }
  if (std::string_view(argv[1]) == "kernels") return kernels_command(argc - 1, argv + 1);
  if (std::string_view(argv[1]) == "step") return step_command(argc - 1, argv + 1);
  if (std::string_view(argv[1]) == "fft") return fft_command(argc - 1, argv + 1);
  if (std::string_view(argv[1]) == "ranks") return bench_ranks_command(argc - 1, argv + 1);
  throw Error("unknown benchmark '" + std::string(argv[1]) + "' (available: kernels, step, fft, ranks)");
}

}  // namespace miniapp::cli
