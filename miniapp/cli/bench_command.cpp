// miniapp bench kernels: memory-bound kernel benchmark against the measured copy bandwidth.
#include <iostream>
#include <string_view>

#include "miniapp/bench/bandwidth.hpp"
#include "miniapp/bench/bench_output.hpp"
#include "miniapp/bench/kernel_bench.hpp"
#include "miniapp/cli/command_line.hpp"
#include "miniapp/cli/commands.hpp"

namespace miniapp::cli {

namespace {

cxxopts::Options kernel_bench_options() {
  cxxopts::Options options("miniapp bench kernels",
                           "Times SpMV (CSR, sELL), AXPY and DOT on Laplacians of generated meshes and compares\n"
                           "their bandwidth (bytes from the kernel cost model) with the measured copy bandwidth.");
  options.add_options()
      ("backend", "cpu or cuda", cxxopts::value<std::string>()->default_value("cpu"))
      ("mesh-sizes", "approximate cell counts", cxxopts::value<std::string>()->default_value("1e4,1e5,1e6"))
      ("meshes", "mesh kinds: any of hex, tet, prism", cxxopts::value<std::string>()->default_value("hex,tet,prism"))
      ("repeat", "timed calls per kernel (the median is reported)", cxxopts::value<std::string>()->default_value("20"))
      ("json", "also write the results to this JSON file", cxxopts::value<std::string>())
      ("h,help", "print this help");
  return options;
}

std::vector<MeshKind> parse_meshes(const std::string& text) {
  std::vector<MeshKind> kinds;
  for (const std::string& item : split_list(text)) {
    bool known = false;
    for (MeshKind kind : {MeshKind::hex, MeshKind::tet, MeshKind::prism})
      if (item == kind_name(kind)) kinds.push_back(kind), known = true;
    if (!known) throw Error("--meshes: '" + item + "' is not hex, tet or prism");
  }
  return kinds;
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
  settings.meshes = parse_meshes(result["meshes"].as<std::string>());
  settings.repeat = option_index(result, "repeat", 1, 100'000);
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

}  // namespace

int bench_command(int argc, char** argv) {
  const std::string_view usage = "usage: miniapp bench kernels [options]   ('miniapp bench kernels --help')\n";
  if (argc < 2 || std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h") {
    (argc < 2 ? std::cerr : std::cout) << usage;
    return argc < 2 ? 2 : 0;
  }
  if (std::string_view(argv[1]) != "kernels")
    throw Error("unknown benchmark '" + std::string(argv[1]) + "' (available: kernels)");
  return kernels_command(argc - 1, argv + 1);
}

}  // namespace miniapp::cli
