#include "miniapp/predict/calibration_file.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "miniapp/output/atomic_file.hpp"
#include "miniapp/predict/comm_json.hpp"

namespace miniapp::predict {
namespace {

using Json = nlohmann::ordered_json;

// The member `key` of the object `parent` (the element `where` of the file, for errors), checked by
// `is` (e.g. &Json::is_number, `what` = "a number").
const Json& member(const Json& parent, const char* key, bool (Json::*is)() const noexcept, const char* what,
                   const std::string& where) {
  if (!parent.is_object() || !parent.contains(key)) throw Error(where + ": missing key '" + key + "'");
  const Json& value = parent[key];
  if (!(value.*is)()) throw Error(where + ": '" + key + "' is not " + what);
  return value;
}

double number(const Json& parent, const char* key, const std::string& where) {
  return member(parent, key, &Json::is_number, "a number", where).get<double>();
}

std::string text(const Json& parent, const char* key, const std::string& where) {
  return member(parent, key, &Json::is_string, "a string", where).get<std::string>();
}

// A curve's points: [bytes, seconds] for one call, [bytes, seconds, calls] where `with_calls` (an
// iteration's).
std::vector<CostPoint> points_of(const Json& entry, const std::string& where, bool with_calls = false) {
  std::vector<CostPoint> points;
  const std::size_t size = with_calls ? 3 : 2;
  for (const Json& p : member(entry, "points", &Json::is_array, "an array", where)) {
    if (!p.is_array() || p.size() != size ||
        !std::all_of(p.begin(), p.end(), [](const Json& x) { return x.is_number(); }))
      throw Error(where + (with_calls ? ": a point is [bytes, seconds, calls]" : ": a point is [bytes, seconds]"));
    points.push_back({p[0].get<double>(), p[1].get<double>(), with_calls ? p[2].get<double>() : 1.0});
  }
  return points;
}

Json points_json(const CostCurve& curve, bool with_calls = false) {
  Json points = Json::array();
  for (const CostPoint& p : curve.points())
    points.push_back(with_calls ? Json{p.bytes, p.seconds, p.calls} : Json{p.bytes, p.seconds});
  return points;
}

Json retention_json(const std::vector<RetentionPoint>& points) {
  Json out = Json::array();
  for (const RetentionPoint& p : points) out.push_back({p.bytes, p.kept});
  return out;
}

// [[bytes, kept], ...]: bytes positive and increasing, kept in [0, 1].
std::vector<RetentionPoint> read_retention(const Json& root, const std::string& path) {
  const std::string where = path + ": cache_retention";
  std::vector<RetentionPoint> points;
  for (const Json& p : member(root, "cache_retention", &Json::is_array, "an array", path)) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
      throw Error(where + ": a point is [bytes, kept]");
    const RetentionPoint point{p[0].get<double>(), p[1].get<double>()};
    if (!(point.bytes > 0) || !std::isfinite(point.bytes) || (!points.empty() && !(point.bytes > points.back().bytes)))
      throw Error(where + ": bytes must be positive, finite and increasing");
    if (!(point.kept >= 0 && point.kept <= 1)) throw Error(where + ": kept must lie in [0, 1]");
    points.push_back(point);
  }
  return points;
}

// The member `key`, [[rows, systems, cost], ...]: all positive and finite, sorted by rows, then by
// systems.
std::vector<WidthPoint> read_widths(const Json& root, const char* key, const std::string& path) {
  const std::string where = path + ": " + key;
  std::vector<WidthPoint> points;
  for (const Json& p : member(root, key, &Json::is_array, "an array", path)) {
    if (!p.is_array() || p.size() != 3 || !std::all_of(p.begin(), p.end(), [](const Json& x) { return x.is_number(); }))
      throw Error(where + ": a point is [rows, systems, cost]");
    const WidthPoint point{p[0].get<double>(), p[1].get<double>(), p[2].get<double>()};
    for (const double v : {point.rows, point.systems, point.cost})
      if (!(v > 0) || !std::isfinite(v)) throw Error(where + ": rows, systems and cost must be positive and finite");
    if (!points.empty() && !(std::pair(point.rows, point.systems) > std::pair(points.back().rows, points.back().systems)))
      throw Error(where + ": points must be sorted by rows, then by systems, without repeats");
    points.push_back(point);
  }
  return points;
}

CacheLevel cache_level_from(const std::string& text, const std::string& where) {
  for (int l = 0; l < cache_level_count; ++l)
    if (text == name(static_cast<CacheLevel>(l))) return static_cast<CacheLevel>(l);
  throw Error(where + ": unknown cache level '" + text + "' (expected hot, warm or streaming)");
}

// One entry of a curve table (the element `where`): its variant, level and points.
void read_curve(const Json& entry, CurveTable& table, const std::string& where,
                std::array<std::array<bool, cache_level_count>, kernel_variant_count>& seen) {
  const std::string kernel = text(entry, "kernel", where);
  const auto variant = kernel_variant_from_name(kernel);
  if (!variant) throw Error(where + ": unknown kernel '" + kernel + "'");
  const CacheLevel level = cache_level_from(text(entry, "cache", where), where);
  try {
    table[static_cast<int>(*variant)][static_cast<int>(level)] = CostCurve(points_of(entry, where));
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
  seen[static_cast<int>(*variant)][static_cast<int>(level)] = true;
}

// A positive integer member.
int count_of(const Json& parent, const char* key, const std::string& where) {
  const double n = number(parent, key, where);
  if (!(n >= 1) || n != static_cast<int>(n)) throw Error(where + ": '" + key + "' must be a positive integer");
  return static_cast<int>(n);
}

// An iteration unit's entry {unit, latency_s, points [[bytes, seconds, calls], ...]}.
std::pair<IterationUnit, CostCurve> unit_curve_of(const Json& entry, const std::string& where) {
  const std::string unit_name = text(entry, "unit", where);
  const auto unit = iteration_unit_from_name(unit_name);
  if (!unit) throw Error(where + ": unknown unit '" + unit_name + "'");
  try {
    return {*unit, CostCurve(points_of(entry, where, true))};
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
}

// The "communication" object (null when the file was measured on one rank).
std::optional<CommCalibration> read_communication(const Json& root, const std::string& path) {
  if (!root.contains("communication")) throw Error(path + ": missing key 'communication'");
  const Json& j = root["communication"];
  if (j.is_null()) return std::nullopt;
  const std::string where = path + ": communication";
  CommCalibration c;
  c.transport = text(j, "transport", where);
  const Json& halo = member(j, "halo", &Json::is_array, "an array", where);
  for (std::size_t i = 0; i < halo.size(); ++i) {
    const std::string at = where + ".halo[" + std::to_string(i) + "]";
    HaloCurve h{count_of(halo[i], "ranks", at), count_of(halo[i], "neighbours", at), {}};
    try {
      h.curve = CostCurve(points_of(halo[i], at));
    } catch (const Error& e) {
      throw Error(at + ": " + e.what());
    }
    if (!c.halo.empty() && h.ranks <= c.halo.back().ranks) throw Error(at + ": rank counts must increase");
    c.halo.push_back(std::move(h));
  }
  for (const Json& p : member(j, "allreduce", &Json::is_array, "an array", where)) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number() || !(p[1].get<double>() >= 0))
      throw Error(where + ".allreduce: a point is [ranks, seconds >= 0]");
    c.allreduce.push_back({p[0].get<int>(), p[1].get<double>()});
  }
  if (c.halo.empty() || c.allreduce.size() != c.halo.size())
    throw Error(where + ": needs one halo curve and one allreduce time per rank count (incomplete calibration)");
  const Json& iterations = member(j, "iterations", &Json::is_array, "an array", where);
  for (std::size_t i = 0; i < iterations.size(); ++i) {
    const std::string at = where + ".iterations[" + std::to_string(i) + "]";
    const int ranks = count_of(iterations[i], "ranks", at);
    auto [unit, curve] = unit_curve_of(iterations[i], at);
    if (c.iteration_curve(unit, ranks)) throw Error(at + ": a second curve for unit '" + std::string(name(unit)) +
                                                    "' on " + std::to_string(ranks) + " ranks");
    c.iterations.push_back({ranks, unit, std::move(curve)});
  }
  return c;
}

// Reads the curve table `key` ("curves" or "graph_curves"); every (variant, level) must appear.
CurveTable read_curves(const Json& root, const char* key, const std::string& path) {
  const Json& curves = member(root, key, &Json::is_array, "an array", path);
  CurveTable table;
  std::array<std::array<bool, cache_level_count>, kernel_variant_count> seen{};
  for (std::size_t i = 0; i < curves.size(); ++i)
    read_curve(curves[i], table, path + ": " + key + "[" + std::to_string(i) + "]", seen);
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l)
      if (!seen[v][l])
        throw Error(path + ": no " + std::string(name(static_cast<CacheLevel>(l))) +
                    (std::string_view(key) == "curves" ? " curve" : " graph curve") + " for kernel " +
                    std::string(name(static_cast<KernelVariant>(v))) + " (incomplete calibration)");
  return table;
}

// The "graph_curves" table, null where the backend records no graphs (CPU).
std::optional<CurveTable> read_graph_curves(const Json& root, const std::string& path) {
  if (!root.contains("graph_curves")) throw Error(path + ": missing key 'graph_curves'");
  if (root["graph_curves"].is_null()) return std::nullopt;
  return read_curves(root, "graph_curves", path);
}

// The "iteration_curves" array: one entry per calibrated IterationUnit.
std::array<std::optional<CostCurve>, iteration_unit_count> read_iteration_curves(const Json& root,
                                                                                 const std::string& path) {
  const Json& entries = member(root, "iteration_curves", &Json::is_array, "an array", path);
  std::array<std::optional<CostCurve>, iteration_unit_count> curves;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string where = path + ": iteration_curves[" + std::to_string(i) + "]";
    const auto [unit, curve] = unit_curve_of(entries[i], where);
    if (curves[static_cast<int>(unit)]) throw Error(where + ": a second curve for unit '" + std::string(name(unit)) + "'");
    curves[static_cast<int>(unit)] = curve;
  }
  return curves;
}

// The file's text as JSON; a syntax error names the file and the line.
Json parse_calibration(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw file_error(path, "cannot open the calibration file (run 'miniapp predict --calibrate' to measure one)");
  std::ostringstream contents;
  contents << in.rdbuf();
  const std::string text = contents.str();
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    const auto end = text.begin() + static_cast<std::ptrdiff_t>(std::min(e.byte, text.size()));
    const auto line = 1 + std::count(text.begin(), end, '\n');
    throw Error(path + ":" + std::to_string(line) + ": invalid JSON (" + e.what() + ")");
  }
}

Json curve_table_json(const CurveTable& table) {
  Json curves = Json::array();
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l)
      curves.push_back({{"kernel", name(static_cast<KernelVariant>(v))},
                        {"cache", name(static_cast<CacheLevel>(l))},
                        {"latency_s", table[v][l].latency()},
                        {"points", points_json(table[v][l])}});
  return curves;
}

Json iteration_curves_json(const Calibration& c) {
  Json entries = Json::array();
  for (int u = 0; u < iteration_unit_count; ++u)
    if (const auto& curve = c.iteration_curves[u])
      entries.push_back({{"unit", name(static_cast<IterationUnit>(u))},
                         {"latency_s", curve->latency()},
                         {"points", points_json(*curve, true)}});
  return entries;
}

Json batched_widths_json(const std::vector<WidthPoint>& points) {
  Json out = Json::array();
  for (const WidthPoint& p : points) out.push_back({p.rows, p.systems, p.cost});
  return out;
}

Json communication_json(const std::optional<CommCalibration>& comm) {
  if (!comm) return nullptr;
  Json halo = Json::array(), allreduce = Json::array();
  for (const HaloCurve& h : comm->halo)
    halo.push_back({{"ranks", h.ranks}, {"neighbours", h.neighbours}, {"latency_s", h.curve.latency()},
                    {"points", points_json(h.curve)}});
  for (const ReductionPoint& p : comm->allreduce) allreduce.push_back({p.ranks, p.seconds});
  Json iterations = Json::array();
  for (const RankIterationCurve& i : comm->iterations)
    iterations.push_back({{"ranks", i.ranks}, {"unit", name(i.unit)}, {"latency_s", i.curve.latency()},
                          {"points", points_json(i.curve, true)}});
  return {{"transport", comm->transport},
          {"halo", std::move(halo)},
          {"allreduce", std::move(allreduce)},
          {"iterations", std::move(iterations)}};
}

}  // namespace

nlohmann::ordered_json cost_tables_json(const Calibration& c) {
  return {{"curves", curve_table_json(c.curves)},
          {"graph_curves", c.graph_curves ? curve_table_json(*c.graph_curves) : Json(nullptr)},
          {"iteration_curves", iteration_curves_json(c)},
          {"batched_widths", batched_widths_json(c.batched_widths)},
          {"batched_amg_blocks", batched_widths_json(c.batched_amg_blocks)},
          {"communication", communication_json(c.communication)}};
}

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
  Json root = {
      {"format", calibration_format},
      {"date", c.date},
      {"device",
       {{"backend", c.device.backend}, {"description", c.device.description}, {"cache_bytes", c.device.cache_bytes},
        {"private_cache_bytes", c.device.private_cache_bytes}}},
      {"build",
       {{"git", c.build.git}, {"compiler", c.build.compiler}, {"build_type", c.build.build_type},
        {"cuda", c.build.cuda}}},
      {"copy_gb_per_s", c.copy_gb_per_s},
      {"streaming_footprint_bytes", c.streaming_footprint},
      {"warm_footprint_bytes", c.warm_footprint},
      {"cache_retention", retention_json(c.cache_retention)},
      {"pointwise_flops_per_s", c.pointwise_flops_per_second},
      {"sync_s", c.sync_seconds}};
  root.update(cost_tables_json(c));
  output::write_file_atomically(path, root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n");
}

Calibration read_calibration(const std::string& path) {
  const Json root = parse_calibration(path);
  const std::string format = text(root, "format", path);
  if (format != calibration_format)
    throw Error(path + ": format '" + format + "', this program reads '" + calibration_format +
                "' (the cost model changed); run 'miniapp predict --calibrate' to re-measure this device");
  Calibration c;
  c.date = text(root, "date", path);
  const std::string device = path + ": device";
  const Json& d = member(root, "device", &Json::is_object, "an object", path);
  c.device = {text(d, "backend", device), text(d, "description", device), number(d, "cache_bytes", device),
              number(d, "private_cache_bytes", device)};
  const std::string build = path + ": build";
  const Json& b = member(root, "build", &Json::is_object, "an object", path);
  c.build = {text(b, "git", build), text(b, "compiler", build), text(b, "build_type", build),
             member(b, "cuda", &Json::is_boolean, "true or false", build).get<bool>()};
  c.copy_gb_per_s = number(root, "copy_gb_per_s", path);
  c.streaming_footprint = number(root, "streaming_footprint_bytes", path);
  c.warm_footprint = number(root, "warm_footprint_bytes", path);
  c.cache_retention = read_retention(root, path);
  c.pointwise_flops_per_second = number(root, "pointwise_flops_per_s", path);
  if (!(c.pointwise_flops_per_second >= 0) || !std::isfinite(c.pointwise_flops_per_second))
    throw Error(path + ": pointwise_flops_per_s must be a finite number >= 0");
  c.sync_seconds = number(root, "sync_s", path);
  if (!(c.sync_seconds >= 0) || !std::isfinite(c.sync_seconds))
    throw Error(path + ": sync_s must be a finite number >= 0");
  if (!(c.copy_gb_per_s > 0)) throw Error(path + ": copy_gb_per_s must be positive");
  c.curves = read_curves(root, "curves", path);
  c.graph_curves = read_graph_curves(root, path);
  c.iteration_curves = read_iteration_curves(root, path);
  c.batched_widths = read_widths(root, "batched_widths", path);
  c.batched_amg_blocks = read_widths(root, "batched_amg_blocks", path);
  c.communication = read_communication(root, path);
  return c;
}

void check_calibration(const Calibration& c, const DeviceDescription& device, const BuildDescription& build,
                       const std::string& path) {
  std::string why;
  if (c.device.description != device.description || c.device.backend != device.backend)
    why = "it was measured on '" + c.device.description + "', this run uses '" + device.description + "'";
  else if (c.build != build)
    why = "it was measured by build " + c.build.git + " (" + c.build.compiler + ", " + c.build.build_type +
          "), this is build " + build.git + " (" + build.compiler + ", " + build.build_type + ")";
  if (why.empty()) return;
  throw Error(path + ": calibration does not match: " + why +
              "; run 'miniapp predict --calibrate' to measure this device and build (or pass --calibration FILE)");
}

void check_communication(const Calibration& c, const std::string& transport, int ranks, const std::string& path) {
  const std::string remedy = "; run 'mpirun -np " + std::to_string(std::max(ranks, 2)) +
                             " miniapp predict --calibrate --comm " + transport + "' to measure it";
  if (c.communication && c.communication->transport != transport)
    throw Error(path + ": calibration does not match: its communication was measured with halo transport '" +
                c.communication->transport + "', this run uses '" + transport + "'" + remedy);
  if (ranks <= 1) return;
  if (!c.communication)
    throw Error(path + ": the calibration has no communication costs (measured on one rank), this run has " +
                std::to_string(ranks) + " ranks" + remedy);
  if (c.communication->max_ranks() < ranks)
    throw Error(path + ": communication was calibrated on up to " + std::to_string(c.communication->max_ranks()) +
                " ranks, this run has " + std::to_string(ranks) + remedy);
}

}  // namespace miniapp::predict
