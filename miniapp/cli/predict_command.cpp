// miniapp predict [CASE]: the time per step of a case from calibrated kernel and communication costs
// and the loads counted on the case itself (thesis §2.5.4), on 1..N devices; with --measure, beside
// the measured time. Runs under mpirun too: each rank counts its own kernels and messages.
#include <cxxopts.hpp>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "miniapp/bench/bandwidth.hpp"
#include "miniapp/case/case_mesh.hpp"
#include "miniapp/cli/case_arguments.hpp"
#include "miniapp/cli/command_line.hpp"
#include "miniapp/cli/commands.hpp"
#include "miniapp/cli/rank_main.hpp"
#include "miniapp/output/folder.hpp"
#include "miniapp/predict/calibration_file.hpp"
#include "miniapp/predict/comm_calibration.hpp"
#include "miniapp/predict/device_scaling.hpp"
#include "miniapp/predict/kernel_calibration.hpp"
#include "miniapp/predict/model_notes.hpp"
#include "miniapp/predict/report.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::cli {
namespace {

cxxopts::Options predict_options() {
  cxxopts::Options options("miniapp predict",
                           "Predicts the time per step of CASE (a shipped case name or a .toml file) on 1..N devices\n"
                           "from calibrated kernel and communication costs (measured once per device, build and halo\n"
                           "transport, kept in a file) and the loads counted on a few steps of the case. Under mpirun\n"
                           "-np P the case runs on P ranks, which count their halo updates and reductions too; --calibrate\n"
                           "then also measures the communication on 2..P ranks. Writes report.md, report.json, plots.");
  options.add_options()
      ("case", "case name or file", cxxopts::value<std::string>()->default_value("default"))
      ("set", "override a case value, e.g. --set mesh.cells=[32,32,32] (repeatable)", cxxopts::value<std::string>())
      ("backend", "override numerics.backend: auto, cpu or cuda", cxxopts::value<std::string>())
      ("comm", "halo transport between ranks: mpi, mpi-cuda-aware or nccl",
       cxxopts::value<std::string>()->default_value("mpi"))
      ("calibration", "calibration file (default: miniapp-calibration-<device>.json here)", cxxopts::value<std::string>())
      ("calibrate", "measure the kernel (and, under mpirun, communication) costs and (over)write the calibration file")
      ("quick-calibration", "fewer and smaller sizes (tests; less accurate)")
      ("steps", "steps whose kernel calls are counted", cxxopts::value<std::string>()->default_value("3"))
      ("iterations", "Poisson iterations per step to predict for (default: as counted)", cxxopts::value<std::string>())
      ("devices", "predict for 1..N devices", cxxopts::value<std::string>()->default_value("8"))
      ("measure", "also run the case and print predicted against measured per phase")
      ("measure-steps", "steps timed by --measure", cxxopts::value<std::string>()->default_value("10"))
      ("what-if-bandwidth", "also predict for a device with this memory bandwidth (GB/s)", cxxopts::value<std::string>())
      ("what-if-latency", "its latency per kernel call in µs (default: as calibrated)", cxxopts::value<std::string>())
      ("what-if-name", "its name in the report", cxxopts::value<std::string>()->default_value("what-if device"))
      ("output", "report folder (default: prediction-<case>)", cxxopts::value<std::string>())
      ("no-plots", "do not run the plot scripts")
      ("h,help", "print this help");
  options.parse_positional({"case"});
  options.positional_help("[CASE]");
  return options;
}

// The kernel calibration of this device: measured on rank 0 alone (the other ranks wait), so that
// ranks sharing a CPU do not disturb it.
predict::Calibration measure_kernels(const cxxopts::ParseResult& args, const Executor& exec) {
  predict::CalibrationSettings settings;
  const bool quick = args.count("quick-calibration") > 0;
  if (quick) {
    settings.vector_sizes = {1 << 10, 1 << 13, 1 << 16};
    settings.spmv_rows = {1 << 10, 1 << 13, 1 << 16};
    settings.iteration_rows = settings.spmv_rows;
    settings.width_planes = {1 << 8, 1 << 11};
    settings.repeat = 5;
    settings.flush_bytes = 32.0 * (1 << 20);
    settings.warm_flush_bytes = 4.0 * (1 << 20);
  }
  return predict::calibrate(exec, settings, bench::copy_bandwidth(exec, quick ? 3 : 10), std::cout);
}

// The stored calibration of this device, build and transport on rank 0 (collective; the other ranks
// get an empty one), or a new one when asked for or when none exists.
predict::Calibration load_or_calibrate(const cxxopts::ParseResult& args, const Executor& exec,
                                       const parallel::Communicator& world, std::string& path) {
  const std::string transport = args["comm"].as<std::string>();
  const predict::DeviceDescription device = predict::describe_device(exec);
  path = args.count("calibration") ? args["calibration"].as<std::string>() : predict::default_calibration_path(device);
  const bool root = world.rank() == 0;
  const bool calibrate = args.count("calibrate") || (root && !std::filesystem::exists(path));
  predict::Calibration c;
  if (world.allreduce(static_cast<long long>(calibrate), parallel::ReduceOp::max) == 0) {
    world.run_collectively([&] {
      if (!root) return;
      c = predict::read_calibration(path);
      predict::check_calibration(c, device, predict::describe_build(), path);
      predict::check_communication(c, transport, world.size(), path);
      std::cout << "calibration " << path << " (" << c.date << ")\n";
    });
    return c;
  }
  if (root) std::cout << "calibrating " << device.description << " (once per device and build) into " << path << "\n";
  world.run_collectively([&] {
    if (root) c = measure_kernels(args, exec);
  });
  if (world.size() > 1) {
    predict::CommCalibrationSettings settings;
    if (args.count("quick-calibration")) {
      settings.message_doubles = {1, 256, 32768}, settings.batches = 3;
      settings.iterations.rows = {1 << 10, 1 << 13}, settings.iterations.repeat = 3;
    }
    std::ostringstream silent;
    c.communication = predict::calibrate_communication(world, exec, parallel::parse_transport(transport), settings,
                                                       root ? std::cout : silent);
  }
  world.run_collectively([&] {
    if (root) predict::write_calibration(path, c);
  });
  return c;
}

// This rank's loads: kernels and communication of `steps` counted steps, its sizes, and with
// --measure its measured steps (collective).
predict::RankProfile profile_rank(const cxxopts::ParseResult& args, run::Simulation& sim, double working_set, int steps) {
  predict::RankProfile p;
  p.counts = predict::count_step(sim, steps);
  const parallel::Subdomain& d = *sim.domain;
  p.shape = {static_cast<double>(d.local_count()), static_cast<double>(d.owned_count()),
             static_cast<double>(d.inner_count()), static_cast<double>(d.local_count() - d.owned_count()), working_set};
  if (args.count("measure"))
    p.measured = predict::measure_steps(sim, static_cast<int>(option_index(args, "measure-steps", 1, 1000000)));
  return p;
}

// The mesh's dimension for the weak-scaling surface law: the generator axes with more than one cell.
int mesh_dimensions(const cases::MeshConfig& m) {
  if (m.generator == cases::MeshGenerator::file) return 3;
  int d = 0;
  for (const index_t n : m.cells) d += n > 1;
  return std::max(d, 1);
}

// The predictions of the report (rank 0): 1..N devices strong and weak, the what-if device, the
// measured run's ranks.
void predict_all(const cxxopts::ParseResult& args, const cases::CaseConfig& config, Backend backend,
                 const std::vector<predict::RankProfile>& profiles, predict::PredictionReport& r) {
  const auto shapes = predict::partition_shapes(cases::make_case_mesh(config.mesh),
                                                static_cast<int>(option_index(args, "devices", 1, 4096)));
  const double single_reads = host_reads_per_iteration(backend);
  const predict::RankProfile one = predict::strong_rank(profiles, shapes.front(), single_reads);
  r.counts = one.counts;
  const double it = args.count("iterations") ? option_double(args, "iterations") : r.counts.iterations;
  for (const predict::PartitionShape& q : shapes) {
    const predict::RankProfile rank = predict::strong_rank(profiles, q, single_reads);
    r.scaling.push_back(predict::predict_rank_step(rank.counts, r.calibration, it, rank.shape.working_set, q.parts));
    if (r.ranks > 1) {
      const predict::RankProfile weak = predict::weak_rank(one, rank, q.parts, mesh_dimensions(config.mesh));
      r.weak.push_back(predict::predict_rank_step(weak.counts, r.calibration, it, weak.shape.working_set, q.parts));
    }
  }
  if (args.count("what-if-bandwidth")) {
    const double latency = args.count("what-if-latency") ? 1e-6 * option_double(args, "what-if-latency") : -1.0;
    r.what_if = r.calibration.what_if(option_double(args, "what-if-bandwidth"), latency,
                                      args["what-if-name"].as<std::string>());
    r.what_if_step = predict::predict_rank_step(one.counts, *r.what_if, it, one.shape.working_set, 1);
  }
  if (profiles.front().measured) {
    r.measured = predict::slowest_rank_measurement(profiles);
    r.at_measured = predict::slowest_rank_step(profiles, r.calibration, r.measured->iterations);
  }
}

std::string report_folder(const cxxopts::ParseResult& args, const std::string& case_name) {
  return args.count("output") ? args["output"].as<std::string>() : "prediction-" + case_name;
}

// Rank 0: the report in Markdown (also printed), JSON and plots, into `dir` (made before the
// measurements, so that a folder that cannot be made stops the command before they are taken).
void write_report(const cxxopts::ParseResult& args, const std::string& dir, predict::PredictionReport& r) {
  r.notes = predict::model_notes(r);
  predict::write_report_markdown(dir + "/report.md", r);
  predict::write_report_json(dir + "/report.json", r);
  std::cout << "\n";
  predict::print_report_markdown(std::cout, r);
  if (!args.count("no-plots")) predict::draw_plots(predict::plot_script_path(), dir + "/report.json", dir, std::cout);
  std::cout << "report    " << dir << "/report.md, report.json\n";
}

int predict_on_ranks(int argc, char** argv, const parallel::Communicator& world) {
  std::vector<char*> rest;
  std::vector<std::string> overrides = take_set_overrides(argc, argv, rest);
  auto options = predict_options();
  const auto args = parse_command_line(options, static_cast<int>(rest.size()), rest.data());
  if (!args) return 0;
  std::string path;
  cases::CaseConfig config;
  const bool root = world.rank() == 0;
  std::ostringstream silent;
  std::string report_dir;
  world.run_collectively([&] {
    config = load_case_argument(*args, std::move(overrides), path, root ? std::cerr : silent);
    report_dir = report_folder(*args, config.name);
    if (root) output::create_folder(report_dir);
  });
  const auto steps = static_cast<int>(option_index(*args, "steps", 1, 100000));
  std::ostream& out = root ? std::cout : silent;
  predict::PredictionReport r;
  r.case_name = config.name;
  r.case_description = config.description;
  r.les = config.physics.les != LesModel::none;
  r.ranks = world.size();
  r.transport = (*args)["comm"].as<std::string>();
  out << "case      " << config.name << ": " << config.description << "\n";
  run::Simulation sim = run::set_up_simulation(config, path, out, world.size() > 1 ? &world : nullptr,
                                               parallel::parse_transport(r.transport));
  out << run::settle_pressure_path(sim);
  r.cells = sim.global_cells;
  r.faces = sim.mesh.face_count();
  const double working_set = static_cast<double>(sim.exec.bytes_allocated());
  r.calibration = load_or_calibrate(*args, sim.exec, world, r.calibration_path);
  out << "counting  kernel calls" << (world.size() > 1 ? " and messages" : "") << " of " << steps
      << " steps (after one warm-up step)\n";
  const predict::RankProfile mine = profile_rank(*args, sim, working_set, steps);
  r.counted_steps = steps;
  const auto profiles = predict::gather_profiles(world.size() > 1 ? &world : nullptr, mine);
  if (world.size() > 1) r.rank_profiles = profiles;
  world.run_collectively([&] {
    if (!root) return;
    predict_all(*args, sim.config, sim.exec.backend(), profiles, r);
    write_report(*args, report_dir, r);
  });
  return 0;
}

}  // namespace

int predict_command(int argc, char** argv) {
  return run_on_ranks(argc, argv, "predict",
                      [&](const parallel::Communicator& world) { return predict_on_ranks(argc, argv, world); });
}

}  // namespace miniapp::cli
