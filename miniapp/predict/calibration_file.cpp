#include "miniapp/predict/calibration_file.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "miniapp/core/error.hpp"
#include "miniapp/output/atomic_file.hpp"
#include "miniapp/predict/json.hpp"

namespace miniapp::predict {
namespace {

void write_curve(std::ostream& out, KernelVariant v, CacheLevel level, const CostCurve& curve) {
  out << "    {\"kernel\": " << json_string(name(v)) << ", \"cache\": " << json_string(name(level))
      << ", \"latency_s\": " << curve.latency() << ",\n     \"points\": [";
  const auto& points = curve.points();
  for (std::size_t i = 0; i < points.size(); ++i)
    out << (i ? ", " : "") << "[" << points[i].bytes << ", " << points[i].seconds << "]";
  out << "]}";
}

CacheLevel cache_level_from(const JsonValue& v) {
  for (int l = 0; l < cache_level_count; ++l)
    if (v.string() == name(static_cast<CacheLevel>(l))) return static_cast<CacheLevel>(l);
  throw Error(v.string() + ": unknown cache level (expected hot, warm or streaming)");
}

// Reads the "curves" array; every (variant, level) must appear exactly once.
void read_curves(const JsonValue& curves, Calibration& c, const std::string& path) {
  std::array<std::array<bool, cache_level_count>, kernel_variant_count> seen{};
  for (const JsonValue& entry : curves.array()) {
    const auto variant = kernel_variant_from_name(entry.at("kernel").string());
    const std::string where = path + ":" + std::to_string(entry.line()) + ": ";
    if (!variant) throw Error(where + "unknown kernel '" + entry.at("kernel").string() + "'");
    CacheLevel level;
    try {
      level = cache_level_from(entry.at("cache"));
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
    std::vector<CostPoint> points;
    for (const JsonValue& p : entry.at("points").array()) {
      if (p.array().size() != 2) throw Error(where + "a point is [bytes, seconds]");
      points.push_back({p.array()[0].number(), p.array()[1].number()});
    }
    try {
      c.curve(*variant, level) = CostCurve(std::move(points));
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
    seen[static_cast<int>(*variant)][static_cast<int>(level)] = true;
  }
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l)
      if (!seen[v][l])
        throw Error(path + ": no " + std::string(name(static_cast<CacheLevel>(l))) + " curve for kernel " +
                    std::string(name(static_cast<KernelVariant>(v))) + " (incomplete calibration)");
}

}  // namespace

std::string default_calibration_path(const DeviceDescription& device) {
  std::string stem;
  for (const char c : device.description) {
    if (std::isalnum(static_cast<unsigned char>(c))) stem += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!stem.empty() && stem.back() != '-') stem += '-';
  }
  while (!stem.empty() && stem.back() == '-') stem.pop_back();
  return "miniapp-calibration-" + stem + ".json";
}

void write_calibration(const std::string& path, const Calibration& c) {
  std::ostringstream out;
  out << std::setprecision(std::numeric_limits<double>::max_digits10);
  out << "{\n  \"format\": " << json_string(calibration_format) << ",\n  \"date\": " << json_string(c.date)
      << ",\n  \"device\": {\"backend\": " << json_string(c.device.backend)
      << ", \"description\": " << json_string(c.device.description) << ", \"cache_bytes\": " << c.device.cache_bytes
      << ", \"private_cache_bytes\": " << c.device.private_cache_bytes << "},\n  \"build\": {\"git\": " << json_string(c.build.git) << ", \"compiler\": " << json_string(c.build.compiler)
      << ", \"build_type\": " << json_string(c.build.build_type) << ", \"cuda\": " << (c.build.cuda ? "true" : "false")
      << "},\n  \"copy_gb_per_s\": " << c.copy_gb_per_s << ",\n  \"streaming_footprint_bytes\": "
      << c.streaming_footprint << ",\n  \"warm_footprint_bytes\": " << c.warm_footprint
      << ",\n  \"sync_s\": " << c.sync_seconds << ",\n  \"curves\": [\n";
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l) {
      if (v + l > 0) out << ",\n";
      write_curve(out, static_cast<KernelVariant>(v), static_cast<CacheLevel>(l),
                  c.curve(static_cast<KernelVariant>(v), static_cast<CacheLevel>(l)));
    }
  out << "\n  ]\n}\n";
  output::write_file_atomically(path, out.str());
}

Calibration read_calibration(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw file_error(path, "cannot open the calibration file (run 'miniapp predict --calibrate' to measure one)");
  std::ostringstream text;
  text << in.rdbuf();
  const JsonValue root = JsonValue::parse(text.str(), path);
  if (root.at("format").string() != calibration_format)
    throw Error(path + ": format '" + root.at("format").string() + "', this program reads '" + calibration_format +
                "' (the cost model changed); run 'miniapp predict --calibrate' to re-measure this device");
  Calibration c;
  c.date = root.at("date").string();
  const JsonValue& d = root.at("device");
  c.device = {d.at("backend").string(), d.at("description").string(), d.at("cache_bytes").number(),
              d.at("private_cache_bytes").number()};
  const JsonValue& b = root.at("build");
  c.build = {b.at("git").string(), b.at("compiler").string(), b.at("build_type").string(),
             b.at("cuda").boolean()};
  c.copy_gb_per_s = root.at("copy_gb_per_s").number();
  c.streaming_footprint = root.at("streaming_footprint_bytes").number();
  c.warm_footprint = root.at("warm_footprint_bytes").number();
  c.sync_seconds = root.at("sync_s").number();
  if (!(c.sync_seconds >= 0) || !std::isfinite(c.sync_seconds))
    throw Error(path + ":" + std::to_string(root.at("sync_s").line()) + ": sync_s must be a finite number >= 0");
  if (!(c.copy_gb_per_s > 0))
    throw Error(path + ":" + std::to_string(root.at("copy_gb_per_s").line()) + ": copy_gb_per_s must be positive");
  read_curves(root.at("curves"), c, path);
  return c;
}

void check_calibration(const Calibration& c, const DeviceDescription& device, const BuildDescription& build,
                       const std::string& path) {
  std::string why;
  if (c.device.description != device.description || c.device.backend != device.backend)
    why = "it was measured on '" + c.device.description + "', this run uses '" + device.description + "'";
  else if (c.build.git != build.git || c.build.compiler != build.compiler || c.build.build_type != build.build_type ||
           c.build.cuda != build.cuda)
    why = "it was measured by build " + c.build.git + " (" + c.build.compiler + ", " + c.build.build_type +
          "), this is build " + build.git + " (" + build.compiler + ", " + build.build_type + ")";
  if (why.empty()) return;
  throw Error(path + ": calibration does not match: " + why +
              "; run 'miniapp predict --calibrate' to measure this device and build (or pass --calibration FILE)");
}

}  // namespace miniapp::predict
