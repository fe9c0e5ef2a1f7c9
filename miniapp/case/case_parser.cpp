#include "miniapp/case/case_parser.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "miniapp/case/case_monitors.hpp"
#include "miniapp/case/case_section.hpp"
#include "miniapp/case/case_toml.hpp"
#include "miniapp/case/case_validation.hpp"

namespace miniapp::cases {

namespace {

// Notes each present key of `names` as ignored, with the reason.
void warn_ignored(const Section& s, std::initializer_list<std::string_view> names, const std::string& why,
                  std::vector<std::string>& warnings) {
  for (std::string_view n : names)
    if (s.has(n)) warnings.push_back(s.key(n) + " is ignored: " + why);
}

// The model constants of the literature: Smagorinsky C_s = 0.17 (Lilly); WALE C_w = 0.325 (Nicoud &
// Ducros); Vreman c = 2.5 C_s^2 ≈ 0.07; sigma 1.5 (Nicoud et al. 2011 calibrate 1.35). See docs/case-files.md.
double default_les_constant(LesModel model) {
  switch (model) {
    case LesModel::none: return 0;
    case LesModel::smagorinsky: return 0.17;
    case LesModel::wale: return 0.325;
    case LesModel::vreman: return 0.07;
    case LesModel::sigma: return 1.5;
  }
  return 0;
}

std::array<bool, 3> read_periodic(const Section& s) {
  std::array<bool, 3> periodic{false, false, false};
  for (const char c : s.string("periodic").value_or("")) {
    if (c < 'x' || c > 'z')
      throw s.error("periodic", std::string("'") + c + "' is not an axis (give a subset of \"xyz\", e.g. \"xz\")");
    if (periodic[c - 'x']) throw s.error("periodic", std::string("axis ") + c + " is given twice");
    periodic[c - 'x'] = true;
  }
  return periodic;
}

MeshConfig read_mesh(const Section& s, const std::string& case_path, std::vector<std::string>& warnings) {
  MeshConfig m;
  m.generator = s.required(s.choice("generator", mesh_generator_names), "generator",
                           "required (" + allowed_list(mesh_generator_names) + ")");
  m.decomposition = s.choice("decomposition", decomposition_names).value_or(m.decomposition);
  if (m.generator == MeshGenerator::file) {
    const std::string file = s.required(s.string("file"), "file", "required for generator \"file\"");
    const std::filesystem::path p(file);
    m.file = p.is_absolute() ? file : (std::filesystem::path(case_path).parent_path() / p).string();
    m.layers = s.index("layers").value_or(0);
    m.length_z = s.real("length_z").value_or(0);
    if (s.has("layers") != s.has("length_z"))
      throw s.error(s.has("layers") ? "length_z" : "layers", "mesh.layers and mesh.length_z go together (extrusion of a 2D file)");
    if (s.has("periodic"))
      throw s.error("periodic", "only for generated meshes (extruded 2D files are periodic in z)");
    m.periodic[2] = m.layers > 0;
    warn_ignored(s, {"cells", "length", "origin", "stretch"}, "only for generated meshes", warnings);
    return m;
  }
  const std::string why = "required for generator \"" + std::string(name(m.generator)) + "\"";
  m.cells = s.required(s.index3("cells"), "cells", why);
  m.length = s.required(s.real3("length"), "length", why);
  m.origin = s.real3("origin").value_or(Vec3{0, 0, 0});
  const Vec3 stretch = s.real3("stretch").value_or(Vec3{0, 0, 0});
  m.stretch = {stretch.x, stretch.y, stretch.z};
  m.periodic = read_periodic(s);
  warn_ignored(s, {"file", "layers", "length_z"}, "only for generator \"file\"", warnings);
  return m;
}

PhysicsConfig read_physics(const Section& s, std::vector<std::string>& warnings) {
  PhysicsConfig p;
  if (s.has("re") == s.has("nu"))
    throw s.error(s.has("re") ? "nu" : "re", s.has("re") ? "give either physics.re or physics.nu, not both"
                                                         : "give one of physics.re or physics.nu");
  p.reference_velocity = s.real("reference_velocity").value_or(1);
  p.reference_length = s.real("reference_length").value_or(1);
  // nu = U L / re and back; a zero or negative input is refused by validation before any use.
  const double ul = p.reference_velocity * p.reference_length;
  p.re = s.real("re").value_or(0);
  p.nu = s.real("nu").value_or(0);
  if (s.has("re"))
    p.nu = ul / p.re;
  else
    p.re = ul / p.nu;
  p.body_force = s.real3("body_force").value_or(Vec3{0, 0, 0});
  p.bulk_velocity = s.real3("bulk_velocity");
  p.les = s.choice("les", les_model_names).value_or(LesModel::none);
  p.les_constant = s.real("les_constant").value_or(default_les_constant(p.les));
  if (p.les == LesModel::none) warn_ignored(s, {"les_constant"}, "physics.les is \"none\"", warnings);
  return p;
}

InitialConfig read_initial(const Section& s, std::vector<std::string>& warnings) {
  InitialConfig i;
  i.type = s.choice("type", initial_type_names).value_or(InitialType::rest);
  if (i.type == InitialType::uniform)
    i.velocity = s.required(s.real3("velocity"), "velocity", "required for type \"uniform\"");
  else
    warn_ignored(s, {"velocity"}, "only for type \"uniform\"", warnings);
  i.amplitude = s.real("amplitude").value_or(1);
  i.perturbation = s.real("perturbation").value_or(0);
  return i;
}

std::vector<BoundaryCondition> read_boundaries(const toml::table& doc, const KeyOrigins& origins,
                                               std::vector<std::string>& warnings) {
  std::vector<BoundaryCondition> out;
  const toml::table* boundary = doc.get_as<toml::table>("boundary");
  if (boundary == nullptr) return out;
  for (auto&& [patch, node] : *boundary) {
    const Section s(node.as_table(), "boundary." + std::string(patch.str()), origins);
    BoundaryCondition b{std::string(patch.str())};
    b.type = s.required(s.choice("type", boundary_type_names), "type",
                        "required (" + allowed_list(boundary_type_names) + ")");
    if (b.type == BoundaryType::moving_wall || b.type == BoundaryType::inlet)
      b.velocity = s.required(s.real3("velocity"), "velocity", "required for type \"" + std::string(name(b.type)) + "\"");
    else
      warn_ignored(s, {"velocity"}, "only for types \"moving-wall\" and \"inlet\"", warnings);
    out.push_back(std::move(b));
  }
  return out;
}

NumericsConfig read_numerics(const Section& s, std::vector<std::string>& warnings) {
  NumericsConfig n;
  n.backend = s.choice("backend", backend_names).value_or(Backend::automatic);
  n.time_step = s.choice("time_step", time_step_method_names).value_or(n.time_step);
  n.cfl = s.real("cfl").value_or(n.cfl);
  n.max_kappa = s.real("max_kappa").value_or(n.max_kappa);
  n.dt = s.real("dt");
  n.max_dt = s.real("max_dt");
  if (n.dt) warn_ignored(s, {"max_dt", "cfl"}, "numerics.dt fixes the time step", warnings);
  n.poisson_tolerance = s.real("poisson_tolerance").value_or(n.poisson_tolerance);
  n.poisson_max_iterations = s.index("poisson_max_iterations").value_or(n.poisson_max_iterations);
  n.preconditioner = s.choice("preconditioner", preconditioner_names).value_or(n.preconditioner);
  n.aip_form = s.choice("aip_form", aip_form_names).value_or(n.aip_form);
  if (n.preconditioner == Preconditioner::jacobi || n.preconditioner == Preconditioner::amg)
    warn_ignored(s, {"aip_form"}, "numerics.preconditioner = \"" + std::string(name(n.preconditioner)) + "\" has no AIP",
                 warnings);
  n.amg_storage = s.choice("amg_storage", amg_storage_names).value_or(n.amg_storage);
  n.amg_redundant_rows = s.index("amg_redundant_rows");
  if (n.preconditioner != Preconditioner::amg && n.preconditioner != Preconditioner::automatic)
    warn_ignored(s, {"amg_storage", "amg_redundant_rows"},
                 "only with numerics.preconditioner = \"amg\" (or \"auto\" where it picks AMG)", warnings);
  n.poisson = s.choice("poisson", poisson_solver_names).value_or(n.poisson);
  n.fft_low_frequency_blocks = static_cast<int>(s.integer("fft_low_frequency_blocks").value_or(n.fft_low_frequency_blocks));
  if (n.poisson == PoissonSolver::pcg)
    warn_ignored(s, {"fft_low_frequency_blocks"}, "numerics.poisson = \"pcg\" has no frequency systems", warnings);
  n.slice_height = s.index("slice_height").value_or(n.slice_height);
  return n;
}

RunConfig read_run(const Section& s) {
  RunConfig r;
  r.end_time = s.real("end_time");
  r.max_steps = s.integer("max_steps");
  if (!r.end_time && !r.max_steps) throw s.error("end_time", "give run.end_time, run.max_steps or both");
  r.progress_interval = s.real("progress_interval").value_or(r.progress_interval);
  r.watchdog_timeout = s.real("watchdog_timeout").value_or(r.watchdog_timeout);
  return r;
}

OutputConfig read_output(const Section& s, const std::string& case_name) {
  OutputConfig o;
  o.directory = s.string("directory").value_or("output/" + case_name);
  o.interval = s.real("interval").value_or(0);
  o.checkpoint_interval = s.real("checkpoint_interval").value_or(0);
  o.diagnostics_interval = s.integer("diagnostics_interval").value_or(1);
  o.enstrophy_divergence_interval =
      s.integer("enstrophy_divergence_interval").value_or(o.enstrophy_divergence_interval);
  o.checkpoint_keep = s.index("checkpoint_keep").value_or(o.checkpoint_keep);
  o.compression = s.choice("compression", vtk_compression_names).value_or(o.compression);
  const std::optional<std::vector<std::string>> fields = s.strings("fields");
  if (!fields) {
    for (const auto& [text, field] : output_field_names) o.fields.push_back(field);
    return o;
  }
  for (const std::string& text : *fields) {
    const OutputField* field = find_value(output_field_names, text);
    if (field == nullptr)
      throw s.error("fields", "unknown field \"" + text + "\" (allowed: " + allowed_list(output_field_names) + ")");
    if (o.has(*field)) throw s.error("fields", "\"" + text + "\" is given twice");
    o.fields.push_back(*field);
  }
  return o;
}

void read_header(const Section& s, const std::string& path, CaseConfig& c) {
  c.name = s.required(s.string("name"), "name", "required (the file name without .toml)");
  const std::string stem = std::filesystem::path(path).stem().string();
  if (c.name != stem)
    throw s.error("name", "\"" + c.name + "\" does not match the file name (expected \"" + stem + "\")");
  c.description = s.string("description").value_or("");
}

toml::table parse_toml(std::string_view text, const std::string& path) {
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const toml::source_position at = e.source().begin;
    throw Error(path + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                ": TOML syntax error: " + std::string(e.description()));
  }
}

}  // namespace

CaseConfig parse_case(std::string_view text, const std::string& path, std::span<const std::string> overrides) {
  toml::table doc = parse_toml(text, path);
  CaseConfig c;
  c.origins.file = path;
  apply_overrides(doc, overrides, c.origins);
  // Every error is gathered before any is reported: the schema's, then each section's reading, then
  // (when everything could be read) the validation's.
  CaseErrors errors;
  check_against_schema(doc, c.origins, errors);
  bool unread = false;
  unread |= errors.collect("case", [&] { read_header(Section(doc, "case", c.origins), path, c); });
  unread |= errors.collect("mesh", [&] { c.mesh = read_mesh(Section(doc, "mesh", c.origins), path, c.warnings); });
  unread |= errors.collect("physics", [&] { c.physics = read_physics(Section(doc, "physics", c.origins), c.warnings); });
  unread |= errors.collect("initial", [&] { c.initial = read_initial(Section(doc, "initial", c.origins), c.warnings); });
  unread |= errors.collect("boundary", [&] { c.boundaries = read_boundaries(doc, c.origins, c.warnings); });
  unread |= errors.collect("numerics", [&] { c.numerics = read_numerics(Section(doc, "numerics", c.origins), c.warnings); });
  unread |= errors.collect("run", [&] { c.run = read_run(Section(doc, "run", c.origins)); });
  unread |= errors.collect("output", [&] { c.output = read_output(Section(doc, "output", c.origins), c.name); });
  unread |= errors.collect("statistics", [&] { c.statistics = read_statistics(doc, c.origins); });
  unread |= errors.collect("forces", [&] { c.forces = read_forces(doc, c.physics, c.origins); });
  unread |= errors.collect("probes", [&] { c.probes = read_probes(doc, c.origins); });
  // Validation needs every section read (a value that could not be read holds its default).
  if (!unread) validate_case(c, errors);
  errors.throw_if_any(path);
  return c;
}

CaseConfig load_case(const std::string& path, std::span<const std::string> overrides) {
  if (std::filesystem::is_directory(path))
    throw file_error(path, "is a directory, not a case file (give a .toml file, or a shipped case name: see 'miniapp list')");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw file_error(path, std::string("cannot open the case file (") + std::strerror(errno) + ")");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_case(text.str(), path, overrides);
}

}  // namespace miniapp::cases
