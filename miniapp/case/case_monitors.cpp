#include "miniapp/case/case_monitors.hpp"

#include <algorithm>
#include <cmath>

#include "miniapp/case/case_section.hpp"
#include "miniapp/case/case_validation.hpp"

namespace miniapp::cases {
namespace {

std::string periodic_axes(const MeshConfig& m) {
  std::string out;
  for (int i = 0; i < 3; ++i)
    if (m.periodic[i]) out += static_cast<char>('x' + i);
  return out;
}

// The vector of `name` scaled to length 1; a zero vector is refused.
Vec3 direction(const Section& s, std::string_view name, Vec3 fallback) {
  const Vec3 v = s.real3(name).value_or(fallback);
  const double length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  if (!(length > 0)) throw s.error(name, "must not be the zero vector");
  return {v.x / length, v.y / length, v.z / length};
}

// Profiles are binned by the layers of a generated box along the axis and averaged over the two
// other axes, which must be periodic (homogeneous).
void check_profile_axis(const MeshConfig& m, int axis, const KeyOrigins& o) {
  const std::string axis_name(1, static_cast<char>('x' + axis));
  if (m.generator != MeshGenerator::hex && m.generator != MeshGenerator::tet)
    throw o.error("statistics.profile_axis", "profiles are binned by the layers of a generated box: they need "
                                             "mesh.generator \"hex\" or \"tet\", not \"" +
                                                 std::string(name(m.generator)) + "\"");
  if (m.periodic[axis])
    throw o.error("statistics.profile_axis", "axis " + axis_name + " is periodic: a profile runs along a non-homogeneous axis");
  for (int other = 0; other < 3; ++other)
    if (other != axis && !m.periodic[other])
      throw o.error("statistics.profile_axis", "a profile along " + axis_name + " averages over the two other axes, but the mesh is not periodic in " +
                                                   std::string(1, static_cast<char>('x' + other)) + " (mesh.periodic = \"" +
                                                   periodic_axes(m) + "\")");
}

}  // namespace

void check_force_patches(const CaseConfig& c, const KeyOrigins& o, const std::vector<std::string>& patches,
                         const std::string& mesh_what) {
  for (const ForcesConfig& f : c.forces) {
    const std::string key = "forces." + f.patch;
    if (std::find(patches.begin(), patches.end(), f.patch) == patches.end()) {
      std::string list;
      for (const std::string& p : patches) list += (list.empty() ? "" : ", ") + p;
      throw o.error(key, mesh_what + " has no patch \"" + f.patch + "\" (its patches: " + (list.empty() ? "none" : list) + ")");
    }
    const BoundaryCondition* b = c.find_boundary(f.patch);
    if (b && !is_wall(b->type))
      throw o.error(key, "patch " + f.patch + " is of type \"" + std::string(name(b->type)) +
                             "\": forces are computed on \"wall\" and \"moving-wall\" patches");
  }
}

StatisticsConfig read_statistics(const toml::table& doc, const KeyOrigins& origins) {
  StatisticsConfig st;
  const Section s(doc, "statistics", origins);
  if (!doc.contains("statistics")) return st;
  st.enabled = true;
  st.start_time = s.required(s.real("start_time"), "start_time", "required (the time the averages start at)");
  st.sample_interval = s.integer("sample_interval").value_or(st.sample_interval);
  if (const auto axis = s.string("profile_axis")) {
    if (axis->size() != 1 || (*axis)[0] < 'x' || (*axis)[0] > 'z')
      throw s.error("profile_axis", "\"" + *axis + "\" is not an axis (\"x\", \"y\" or \"z\")");
    st.profile_axis = (*axis)[0] - 'x';
  }
  return st;
}

std::vector<ForcesConfig> read_forces(const toml::table& doc, const PhysicsConfig& physics, const KeyOrigins& origins) {
  std::vector<ForcesConfig> out;
  const toml::table* forces = doc.get_as<toml::table>("forces");
  if (forces == nullptr) return out;
  for (auto&& [patch, node] : *forces) {
    const Section s(node.as_table(), "forces." + std::string(patch.str()), origins);
    ForcesConfig f{std::string(patch.str())};
    f.reference_area = s.required(s.real("reference_area"), "reference_area",
                                  "required (the area A of the coefficients F / (½ U² A))");
    f.reference_velocity = s.real("reference_velocity").value_or(physics.reference_velocity);
    f.reference_length = s.real("reference_length").value_or(physics.reference_length);
    f.drag_direction = direction(s, "drag_direction", {1, 0, 0});
    f.lift_direction = direction(s, "lift_direction", {0, 1, 0});
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<ProbeConfig> read_probes(const toml::table& doc, const KeyOrigins& origins) {
  std::vector<ProbeConfig> out;
  const toml::table* probes = doc.get_as<toml::table>("probes");
  if (probes == nullptr) return out;
  for (auto&& [name, node] : *probes) {
    const Section s(node.as_table(), "probes." + std::string(name.str()), origins);
    out.push_back({std::string(name.str()), s.required(s.real3("position"), "position", "required ([x, y, z])")});
  }
  return out;
}

void validate_monitors(const CaseConfig& c) {
  const KeyOrigins& o = c.origins;
  if (c.output.diagnostics_interval < 1)
    throw o.error("output.diagnostics_interval", "must be >= 1 (got " + std::to_string(c.output.diagnostics_interval) + ")");
  if (c.output.enstrophy_divergence_interval < 1)
    throw o.error("output.enstrophy_divergence_interval",
                  "must be >= 1 (got " + std::to_string(c.output.enstrophy_divergence_interval) + ")");
  const StatisticsConfig& st = c.statistics;
  if (st.enabled) {
    if (!(st.start_time >= 0)) throw o.error("statistics.start_time", "must be >= 0 (got " + show_number(st.start_time) + ")");
    if (c.run.end_time && st.start_time >= *c.run.end_time)
      throw o.error("statistics.start_time", "is " + show_number(st.start_time) + ", not before run.end_time = " +
                                                 show_number(*c.run.end_time) + ": no sample would be taken");
    if (st.sample_interval < 1)
      throw o.error("statistics.sample_interval", "must be >= 1 (got " + std::to_string(st.sample_interval) + ")");
  }
  if (st.profile_axis) check_profile_axis(c.mesh, *st.profile_axis, o);
  for (const ForcesConfig& f : c.forces) {
    const std::string key = "forces." + f.patch;
    require_positive(o, key + ".reference_area", f.reference_area);
    // The defaults come from [physics], checked there.
    if (o.has(key + ".reference_velocity")) require_positive(o, key + ".reference_velocity", f.reference_velocity);
    if (o.has(key + ".reference_length")) require_positive(o, key + ".reference_length", f.reference_length);
  }
}

}  // namespace miniapp::cases
