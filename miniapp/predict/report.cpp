#include "miniapp/predict/report.hpp"

#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

#include "miniapp/output/atomic_file.hpp"
#include "miniapp/predict/json.hpp"

namespace miniapp::predict {
namespace {

std::string kind_name(int k) { return std::string(name(static_cast<KernelKind>(k))); }
std::string phase_name(int p) { return std::string(name(static_cast<time::Phase>(p))); }

void write_load(std::ostream& out, const PhaseLoad& load) {
  out << "{";
  for (int k = 0; k < kernel_kind_count; ++k)
    out << (k ? ", " : "") << json_string(kind_name(k)) << ": {\"calls\": " << load[k].calls
        << ", \"bytes\": " << load[k].bytes << ", \"flops\": " << load[k].flops << "}";
  out << "}";
}

void write_prediction(std::ostream& out, const StepPrediction& s) {
  out << "{\"devices\": " << s.devices << ", \"iterations\": " << s.iterations
      << ", \"working_set_bytes_per_device\": " << s.working_set_bytes << ", \"cache\": " << json_string(name(s.cache))
      << ", \"iteration_cache\": " << json_string(name(s.iteration_cache))
      << ", \"explicit_seconds\": " << s.explicit_seconds << ", \"iteration_seconds\": " << s.iteration_seconds
      << ", \"communication_seconds\": " << s.communication_seconds << ", \"communication_modelled\": false"
      << ", \"step_seconds\": " << s.seconds << ",\n     \"phases\": [";
  for (int p = 0; p < time::phase_count; ++p) {
    out << (p ? ",\n       " : "\n       ") << "{\"phase\": " << json_string(phase_name(p))
        << ", \"seconds\": " << s.phases[p].seconds << ", \"kernels\": {";
    for (int k = 0; k < kernel_kind_count; ++k) {
      const KernelCost& c = s.phases[p].kinds[k];
      out << (k ? ", " : "") << json_string(kind_name(k)) << ": {\"calls\": " << c.calls << ", \"bytes\": " << c.bytes
          << ", \"seconds\": " << c.seconds << "}";
    }
    out << "}}";
  }
  out << "]}";
}

void write_counts(std::ostream& out, const PredictionReport& r) {
  out << "  \"kernel_counts\": {\"counted_steps\": " << r.counted_steps << ", \"iterations\": " << r.counts.iterations
      << ", \"iteration_split\": " << (r.counts.iteration_split ? "true" : "false") << ",\n    \"per_iteration\": ";
  write_load(out, r.counts.per_iteration);
  out << ",\n    \"phases\": [";
  for (int p = 0; p < time::phase_count; ++p) {
    const ThesisRow& t = thesis_table_2_1[p];
    out << (p ? ",\n      " : "\n      ") << "{\"phase\": " << json_string(phase_name(p)) << ", \"thesis_table_2_1\": "
        << "{\"spmv\": " << t.spmv << ", \"axpy\": " << t.axpy << ", \"dot\": " << t.dot << "}, \"fixed\": ";
    write_load(out, r.counts.fixed[p]);
    out << "}";
  }
  out << "]},\n";
}

void write_measurement(std::ostream& out, const PredictionReport& r) {
  const StepMeasurement& m = *r.measured;
  const StepPrediction& s = *r.at_measured;
  out << ",\n  \"measured\": {\"steps\": " << m.steps << ", \"iterations\": " << m.iterations
      << ", \"step_seconds\": " << m.step_seconds << ", \"predicted_step_seconds\": " << s.seconds
      << ", \"step_error\": " << relative_error(s.seconds, m.step_seconds) << ",\n    \"phases\": [";
  for (int p = 0; p < time::phase_count; ++p) {
    const double measured = m.phase_seconds(static_cast<time::Phase>(p));
    out << (p ? ",\n      " : "\n      ") << "{\"phase\": " << json_string(phase_name(p))
        << ", \"predicted_seconds\": " << s.phases[p].seconds << ", \"measured_seconds\": " << measured
        << ", \"error\": " << (measured > 0 ? relative_error(s.phases[p].seconds, measured) : 0.0)
        << ", \"kernel_seconds\": {";
    for (int k = 0; k < kernel_kind_count; ++k)
      out << (k ? ", " : "") << json_string(kind_name(k)) << ": " << m.kernel_seconds[p][k];
    out << "}}";
  }
  out << "],\n    \"prediction\": ";
  write_prediction(out, s);
  out << "}";
}

void write_calibration_summary(std::ostream& out, const char* key, const Calibration& c) {
  out << ",\n  " << json_string(key) << ": {\"device\": " << json_string(c.device.description)
      << ", \"date\": " << json_string(c.date) << ", \"git\": " << json_string(c.build.git)
      << ", \"copy_gb_per_s\": " << c.copy_gb_per_s << ", \"cache_bytes\": " << c.device.cache_bytes
      << ", \"sync_s\": " << c.sync_seconds << ", \"curves\": [";
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l) {
      const CostCurve& curve = c.curves[v][l];
      out << (v + l ? ",\n    " : "\n    ") << "{\"kernel\": " << json_string(name(static_cast<KernelVariant>(v)))
          << ", \"cache\": " << json_string(name(static_cast<CacheLevel>(l))) << ", \"latency_s\": " << curve.latency()
          << ", \"points\": [";
      for (std::size_t i = 0; i < curve.points().size(); ++i)
        out << (i ? ", " : "") << "[" << curve.points()[i].bytes << ", " << curve.points()[i].seconds << "]";
      out << "]}";
    }
  out << "]}";
}

}  // namespace

void write_report_json(const std::string& path, const PredictionReport& r) {
  std::ostringstream out;
  out << std::setprecision(std::numeric_limits<double>::max_digits10);
  out << "{\n  \"case\": {\"name\": " << json_string(r.case_name) << ", \"description\": "
      << json_string(r.case_description) << ", \"cells\": " << r.cells << ", \"faces\": " << r.faces
      << ", \"les\": " << (r.les ? "true" : "false") << "},\n  \"calibration_file\": " << json_string(r.calibration_path)
      << ",\n";
  write_counts(out, r);
  out << "  \"scaling\": [";
  for (std::size_t i = 0; i < r.scaling.size(); ++i) {
    out << (i ? ",\n    " : "\n    ");
    write_prediction(out, r.scaling[i]);
  }
  out << "]";
  write_calibration_summary(out, "calibration", r.calibration);
  if (r.what_if) {
    write_calibration_summary(out, "what_if_device", *r.what_if);
    out << ",\n  \"what_if\": ";
    write_prediction(out, *r.what_if_step);
  }
  if (r.measured) write_measurement(out, r);
  out << ",\n  \"notes\": [";
  for (std::size_t i = 0; i < r.notes.size(); ++i) out << (i ? ", " : "") << json_string(r.notes[i]);
  out << "]\n}\n";
  output::write_file_atomically(path, out.str());
}

std::string plot_script_path() {
  const char* env = std::getenv("MINIAPP_PLOT_SCRIPT");
  return env && *env ? env : MINIAPP_PLOT_SCRIPT;
}

bool draw_plots(const std::string& script, const std::string& json_path, const std::string& out_dir, std::ostream& log) {
  if (!std::filesystem::exists(script)) {
    log << "plots     skipped: " << script << " not found\n";
    return false;
  }
  // The Debian interpreter has python3-matplotlib even where another python3 comes first on PATH.
  std::string python;
  for (const char* candidate : {"python3", "/usr/bin/python3"})
    if (std::system((std::string(candidate) + " -c 'import matplotlib' >/dev/null 2>&1").c_str()) == 0) {
      python = candidate;
      break;
    }
  if (python.empty()) {
    log << "plots     skipped: python3 with matplotlib not found (Debian: apt-get install python3-matplotlib)\n";
    return false;
  }
  const auto quoted = [](const std::string& s) {  // a shell word: ' closed, escaped, reopened
    std::string q = "'";
    for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const int status = std::system((python + " " + quoted(script) + " " + quoted(json_path) + " " + quoted(out_dir)).c_str());
  if (status != 0) log << "plots     failed: " << script << " exited with status " << status << "\n";
  return status == 0;
}

}  // namespace miniapp::predict
