// miniapp predict [CASE]: the time per step of a case from calibrated kernel costs and the kernel
// counts of the case itself (thesis §2.5.4); with --measure, beside the measured time.
#include <cxxopts.hpp>
#include <filesystem>
#include <iostream>

#include "miniapp/bench/bandwidth.hpp"
#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/cli/case_arguments.hpp"
#include "miniapp/cli/command_line.hpp"
#include "miniapp/cli/commands.hpp"
#include "miniapp/predict/calibration_file.hpp"
#include "miniapp/predict/kernel_calibration.hpp"
#include "miniapp/predict/model_notes.hpp"
#include "miniapp/predict/report.hpp"

namespace miniapp::cli {
namespace {

cxxopts::Options predict_options() {
  cxxopts::Options options("miniapp predict",
                           "Predicts the time per step of CASE (a shipped case name or a .toml file) on 1..N devices\n"
                           "from calibrated kernel costs (measured once per device and build, kept in a file) and\n"
                           "the kernel counts of a few steps of the case. Writes report.md, report.json and PNG plots.");
  options.add_options()
      ("case", "case name or file", cxxopts::value<std::string>()->default_value("default"))
      ("set", "override a case value, e.g. --set mesh.cells=[32,32,32] (repeatable)", cxxopts::value<std::string>())
      ("backend", "override numerics.backend: auto, cpu or cuda", cxxopts::value<std::string>())
      ("calibration", "calibration file (default: miniapp-calibration-<device>.json here)", cxxopts::value<std::string>())
      ("calibrate", "measure the kernel costs of this device and (over)write the calibration file")
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
      ("no-plots", "do not run scripts/plot_prediction.py")
      ("h,help", "print this help");
  options.parse_positional({"case"});
  options.positional_help("[CASE]");
  return options;
}

// The stored calibration of this device and build, or a new one when asked for or when none exists.
predict::Calibration load_or_calibrate(const cxxopts::ParseResult& args, const Executor& exec, std::string& path) {
  const predict::DeviceDescription device = predict::describe_device(exec);
  path = args.count("calibration") ? args["calibration"].as<std::string>() : predict::default_calibration_path(device);
  if (!args.count("calibrate") && std::filesystem::exists(path)) {
    predict::Calibration c = predict::read_calibration(path);
    predict::check_calibration(c, device, predict::describe_build(), path);
    std::cout << "calibration " << path << " (" << c.date << ")\n";
    return c;
  }
  std::cout << "calibrating " << device.description << " (once per device and build) into " << path << "\n";
  predict::CalibrationSettings settings;
  if (args.count("quick-calibration")) {
    settings.vector_sizes = {1 << 10, 1 << 13, 1 << 16};
    settings.spmv_rows = {1 << 10, 1 << 13, 1 << 16};
    settings.repeat = 5;
    settings.flush_bytes = 32.0 * (1 << 20);
    settings.warm_flush_bytes = 4.0 * (1 << 20);
  }
  const double copy_gb_per_s = bench::copy_bandwidth(exec, args.count("quick-calibration") ? 3 : 10);
  predict::Calibration c = predict::calibrate(exec, settings, copy_gb_per_s, std::cout);
  predict::write_calibration(path, c);
  return c;
}

// The predictions of the report: 1..N devices, the what-if device, and the measured run.
void predict_all(const cxxopts::ParseResult& args, run::Simulation& sim, double working_set, predict::PredictionReport& r) {
  const double it = args.count("iterations") ? option_double(args, "iterations") : r.counts.iterations;
  const index_t devices = option_index(args, "devices", 1, 4096);
  for (int p = 1; p <= devices; ++p) r.scaling.push_back(predict::predict_step(r.counts, r.calibration, it, working_set, p));
  if (args.count("what-if-bandwidth")) {
    const double latency = args.count("what-if-latency") ? 1e-6 * option_double(args, "what-if-latency") : -1.0;
    r.what_if = r.calibration.what_if(option_double(args, "what-if-bandwidth"), latency,
                                      args["what-if-name"].as<std::string>());
    r.what_if_step = predict::predict_step(r.counts, *r.what_if, it, working_set, 1);
  }
  if (args.count("measure")) {
    r.measured = predict::measure_steps(sim, static_cast<int>(option_index(args, "measure-steps", 1, 1000000)));
    r.at_measured = predict::predict_step(r.counts, r.calibration, r.measured->iterations, working_set, 1);
  }
}

}  // namespace

int predict_command(int argc, char** argv) {
  std::vector<char*> rest;
  std::vector<std::string> overrides = take_set_overrides(argc, argv, rest);
  auto options = predict_options();
  const auto args = parse_command_line(options, static_cast<int>(rest.size()), rest.data());
  if (!args) return 0;
  std::string path;
  cases::CaseConfig config = load_case_argument(*args, std::move(overrides), path);
  const auto steps = static_cast<int>(option_index(*args, "steps", 1, 100000));

  predict::PredictionReport r;
  r.case_name = config.name;
  r.case_description = config.description;
  r.les = config.physics.les != LesModel::none;
  std::cout << "case      " << config.name << ": " << config.description << "\n";
  run::Simulation sim = run::set_up_simulation(std::move(config), path, std::cout);
  r.cells = sim.mesh.cell_count();
  r.faces = sim.mesh.face_count();
  const double working_set = static_cast<double>(sim.exec.bytes_allocated());
  r.calibration = load_or_calibrate(*args, sim.exec, r.calibration_path);
  std::cout << "counting  kernel calls of " << steps << " steps (after one warm-up step)\n";
  r.counts = predict::count_step(sim, steps);
  r.counted_steps = steps;
  predict_all(*args, sim, working_set, r);
  r.notes = predict::model_notes(r);

  const std::string dir = args->count("output") ? (*args)["output"].as<std::string>() : "prediction-" + r.case_name;
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw file_error(dir, "cannot create the report folder: " + error.message());
  predict::write_report_markdown(dir + "/report.md", r);
  predict::write_report_json(dir + "/report.json", r);
  std::cout << "\n";
  predict::print_report_markdown(std::cout, r);
  if (!args->count("no-plots")) predict::draw_plots(predict::plot_script_path(), dir + "/report.json", dir, std::cout);
  std::cout << "report    " << dir << "/report.md, report.json\n";
  return 0;
}

}  // namespace miniapp::cli
