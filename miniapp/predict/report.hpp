#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "miniapp/predict/rank_profile.hpp"

// The prediction report: Markdown for the reader, JSON with every number, PNG plots drawn from the
// JSON by scripts/plot_prediction.py.
namespace miniapp::predict {

using time::thesis_table_2_1;
using time::ThesisRow;

struct PredictionReport {
  std::string case_name, case_description;
  index_t cells = 0, faces = 0;
  bool les = false;               // phase 5 runs
  std::string calibration_path;
  Calibration calibration;
  StepCounts counts;               // one device's (from a multi-rank count: see strong_rank)
  int counted_steps = 0;
  int ranks = 1;                   // of this run (mpirun -np)
  std::string transport = "mpi";   // its halo transport
  std::vector<RankProfile> rank_profiles;  // each rank's counts (and measurement) when ranks > 1
  std::vector<StepPrediction> scaling;  // strong: the case on 1, 2, ..., N devices
  std::vector<StepPrediction> weak;     // weak: the case's size on each of 1..N devices (ranks > 1 only)
  std::optional<StepMeasurement> measured;    // the slowest rank's
  std::optional<StepPrediction> at_measured;  // this run's ranks, at the measured iteration count
  std::optional<Calibration> what_if;         // another device, described by its bandwidth
  std::optional<StepPrediction> what_if_step;
  std::vector<std::string> notes;             // why the model may miss on this case
};

// Relative error (predicted − measured) / measured.
inline double relative_error(double predicted, double measured) { return (predicted - measured) / measured; }

// Every number of the report as JSON (the input of scripts/plot_prediction.py).
void write_report_json(const std::string& path, const PredictionReport& r);
// The report for a reader: counts beside Table 2.1, breakdown by phase and kernel, devices, what-if,
// predicted vs measured, calibration summary.
void write_report_markdown(const std::string& path, const PredictionReport& r);
void print_report_markdown(std::ostream& out, const PredictionReport& r);
// `x` with `digits` decimals (std::fixed), as the report's tables and notes print numbers.
std::string fixed(double x, int digits);

// scripts/plot_prediction.py: $MINIAPP_PLOT_SCRIPT when set, else the source tree's (compile definition).
std::string plot_script_path();

// Runs `python3 script json_path out_dir` when python3 and matplotlib are present; returns whether
// the plots were drawn, with the reason on `log` when not. Never throws for a missing Python.
bool draw_plots(const std::string& script, const std::string& json_path, const std::string& out_dir, std::ostream& log);

}  // namespace miniapp::predict
