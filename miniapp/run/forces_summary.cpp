#include "miniapp/run/forces_summary.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <vector>

#include "miniapp/run/signal_period.hpp"

namespace miniapp::run {
namespace {

// Columns of forces_<patch>.csv (WallMonitor): step, time, 6 components, cd, cl.
constexpr int time_column = 1, drag_column = 8, lift_column = 9;

struct Record {
  std::vector<double> time, drag, lift;
};

Record read_record(const std::filesystem::path& path, double start_time) {
  Record r;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<double> values;
    std::istringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) values.push_back(std::strtod(field.c_str(), nullptr));
    if (values.size() <= lift_column || values[time_column] < start_time) continue;
    r.time.push_back(values[time_column]);
    r.drag.push_back(values[drag_column]);
    r.lift.push_back(values[lift_column]);
  }
  return r;
}

// One patch's line, formatted apart so that its digits do not depend on what the log printed before.
std::string forces_line(const cases::ForcesConfig& fc, double start, const Record& r) {
  std::ostringstream line;
  line << "forces    " << fc.patch << ": " << r.time.size() << " samples from t = " << start;
  if (r.time.empty()) return line.str() + "\n";
  double drag = 0;
  for (double d : r.drag) drag += d;
  line << ", mean Cd " << drag / static_cast<double>(r.drag.size());
  const auto lift = signal_period(r.time, r.lift);
  if (!lift) return line.str() + "; St: fewer than two lift periods\n";
  const double strouhal = fc.reference_length / fc.reference_velocity;  // St per unit frequency
  line << ", Cl mean " << lift->mean << " amplitude " << lift->amplitude << ", St " << lift->frequency * strouhal
       << " (" << lift->periods << " periods, upward crossings of the mean lift), " << lift->spectrum_peak * strouhal
       << " (the lift spectrum's peak)\n";
  return line.str();
}

}  // namespace

void print_forces_summary(const cases::CaseConfig& config, std::ostream& out) {
  const double start = config.statistics.enabled ? config.statistics.start_time : 0.0;
  for (const cases::ForcesConfig& fc : config.forces) {
    const std::filesystem::path path = std::filesystem::path(config.output.directory) / ("forces_" + fc.patch + ".csv");
    out << forces_line(fc, start, read_record(path, start));
  }
}

}  // namespace miniapp::run
