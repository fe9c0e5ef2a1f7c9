#include "miniapp/case/case_validation.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "miniapp/case/case_errors.hpp"
#include "miniapp/case/case_monitors.hpp"

namespace miniapp::cases {

std::string show_number(double v) {
  std::ostringstream out;
  out.precision(12);
  out << v;
  return out.str();
}

void require_positive(const KeyOrigins& o, std::string_view key, double v) {
  if (!(v > 0)) throw o.error(key, "must be > 0 (got " + show_number(v) + ")");
}

namespace {

void non_negative(const KeyOrigins& o, std::string_view key, double v) {
  if (!(v >= 0)) throw o.error(key, "must be >= 0 (got " + show_number(v) + ")");
}

void at_least_one(const KeyOrigins& o, std::string_view key, long long v) {
  if (v < 1) throw o.error(key, "must be >= 1 (got " + std::to_string(v) + ")");
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

void validate_mesh(const MeshConfig& m, const KeyOrigins& o) {
  if (m.decomposition == Decomposition::z_layers && m.generator != MeshGenerator::hex &&
      m.generator != MeshGenerator::tet)
    throw o.error("mesh.decomposition", "\"z-layers\" needs a generated box (generator \"hex\" or \"tet\"), not \"" +
                                            std::string(name(m.generator)) + "\"; use \"metis\"");
  if (m.generator == MeshGenerator::file) {
    if (!std::filesystem::is_regular_file(m.file))
      throw o.error("mesh.file", "cannot find " + m.file + " (relative paths start at the case file's folder)");
    if (o.has("mesh.layers")) at_least_one(o, "mesh.layers", m.layers);
    if (o.has("mesh.length_z")) require_positive(o, "mesh.length_z", m.length_z);
    return;
  }
  for (int i = 0; i < 3; ++i) {
    if (m.cells[i] < 1) throw o.error("mesh.cells", "every count must be >= 1 (got " + std::to_string(m.cells[i]) + ")");
    if (!(m.length[i] > 0)) throw o.error("mesh.length", "every length must be > 0 (got " + show_number(m.length[i]) + ")");
    if (!(m.stretch[i] >= 0)) throw o.error("mesh.stretch", "every factor must be >= 0 (got " + show_number(m.stretch[i]) + ")");
  }
  // Extrusion glues only its end planes, with uniform layers; the triangulated rectangle has no
  // periodic sides.
  if (m.generator == MeshGenerator::prism && (m.periodic[0] || m.periodic[1]))
    throw o.error("mesh.periodic", "the prism generator can only be periodic in z");
  if (m.generator == MeshGenerator::prism && m.stretch[2] != 0)
    throw o.error("mesh.stretch", "the prism generator has uniform layers along z (the z factor must be 0)");
}

void validate_physics(const PhysicsConfig& p, const KeyOrigins& o) {
  require_positive(o, "physics.reference_velocity", p.reference_velocity);
  require_positive(o, "physics.reference_length", p.reference_length);
  if (o.has("physics.re"))
    require_positive(o, "physics.re", p.re);
  else
    require_positive(o, "physics.nu", p.nu);
  if (p.les != LesModel::none) require_positive(o, "physics.les_constant", p.les_constant);
}

// A held bulk velocity needs a non-zero target and a domain that no flow enters or leaves, where the
// uniform shift that holds it is divergence-free.
void validate_bulk_velocity(const CaseConfig& c, const KeyOrigins& o) {
  if (!c.physics.bulk_velocity) return;
  if (!(norm(*c.physics.bulk_velocity) > 0)) throw o.error("physics.bulk_velocity", "must not be the zero vector");
  for (const BoundaryCondition& b : c.boundaries)
    if (b.type == BoundaryType::inlet || b.type == BoundaryType::outlet)
      throw o.error("physics.bulk_velocity", "a held bulk velocity needs a domain without inflow or outflow (periodic, "
                                             "walls, slip walls), but patch " + b.patch + " is an " +
                                             std::string(name(b.type)) + "; remove the key or the open boundary");
}

void validate_initial(const InitialConfig& i, const MeshConfig& m, const KeyOrigins& o) {
  require_positive(o, "initial.amplitude", i.amplitude);
  non_negative(o, "initial.perturbation", i.perturbation);
  // The channel start takes its walls and periods from the generated box.
  if (i.type == InitialType::channel &&
      (m.generator == MeshGenerator::file || !m.periodic[0] || m.periodic[1] || !m.periodic[2]))
    throw o.error("initial.type", "\"channel\" needs a generated box (hex, tet or prism) periodic in x and z with "
                                  "walls at both ends of y (mesh.periodic = \"xz\")");
}

// FFT diagonalisation needs identical, uniformly spaced planes along a periodic z, an even number of
// them (thesis, ch. 4): the first condition the mesh settings fail, or "" when they qualify. An odd
// Nper is checked only when asked: for an explicit "fft" the solver's own message reports it.
std::string fft_unfit_reason(const MeshConfig& m, bool check_parity) {
  const index_t planes = m.generator == MeshGenerator::file ? m.layers : m.cells[2];
  if (m.generator == MeshGenerator::file && m.layers == 0)
    return "a 3D mesh file (mesh.layers = 0) is not known to be an extrusion";
  if (m.generator == MeshGenerator::tet) return "the tet generator makes no extrusion along z";
  if (m.generator != MeshGenerator::file && !m.periodic[2]) return "z is not periodic";
  if (m.generator != MeshGenerator::file && m.stretch[2] != 0)
    return "the layers along z are stretched (mesh.stretch z = " + show_number(m.stretch[2]) + ")";
  if (check_parity && planes % 2 != 0)
    return "Nper = " + std::string(m.generator == MeshGenerator::file ? "mesh.layers" : "mesh.cells z") + " = " +
           std::to_string(planes) + " is odd";
  return "";
}

void validate_numerics(const NumericsConfig& n, const MeshConfig& m, const KeyOrigins& o) {
  require_positive(o, "numerics.cfl", n.cfl);
  // With both methods cfl is the fraction of a stability limit; Adams–Bashforth 2 amplifies the
  // highest diffusive mode at any larger step, which a Laplacian's Gershgorin bound reaches.
  if (n.cfl > 1 && !n.dt)
    throw o.error("numerics.cfl", "must be at most 1, the stability limit of the Adams-Bashforth 2 scheme (got " +
                                      show_number(n.cfl) + "): every step would amplify the flow's fastest modes");
  if (!(n.max_kappa >= 0.5 && n.max_kappa <= 1))
    throw o.error("numerics.max_kappa", "must lie in [0.5, 1] (got " + show_number(n.max_kappa) + ")");
  if (n.max_kappa > 0.5 && n.time_step != TimeStepMethod::eigenvalue)
    throw o.error("numerics.max_kappa", "a κ above 0.5 is chosen by numerics.time_step = \"eigenvalue\" only");
  if (n.dt) require_positive(o, "numerics.dt", *n.dt);
  if (n.max_dt) require_positive(o, "numerics.max_dt", *n.max_dt);
  if (!(n.poisson_tolerance > 0 && n.poisson_tolerance < 1))
    throw o.error("numerics.poisson_tolerance", "must lie in (0, 1) (got " + show_number(n.poisson_tolerance) + ")");
  at_least_one(o, "numerics.poisson_max_iterations", n.poisson_max_iterations);
  non_negative(o, "numerics.slice_height", n.slice_height);
  if (n.amg_redundant_rows) non_negative(o, "numerics.amg_redundant_rows", *n.amg_redundant_rows);
  if (n.fft_low_frequency_blocks < -1 || n.fft_low_frequency_blocks > 8)
    throw o.error("numerics.fft_low_frequency_blocks",
                  "must lie in -1..8 (got " + std::to_string(n.fft_low_frequency_blocks) +
                      "): the FFT path groups its frequency systems in 8 blocks; -1 lets timed solves choose");
  if (const std::string why = fft_unfit_reason(m, false); n.poisson == PoissonSolver::fft && !why.empty())
    throw o.error("numerics.poisson", "\"fft\" needs uniform layers along a periodic z: a hex or prism generator with z in "
                                      "mesh.periodic and no z stretching, or a 2D mesh file with mesh.layers (here " +
                                          why + ")");
}

// numerics.poisson = "auto": fft where the mesh settings qualify, else pcg, and why.
void resolve_poisson_solver(NumericsConfig& n, const MeshConfig& m) {
  if (n.poisson != PoissonSolver::automatic) return;
  const std::string why = fft_unfit_reason(m, true);
  n.poisson = why.empty() ? PoissonSolver::fft : PoissonSolver::pcg;
  n.poisson_choice = why.empty() ? "numerics.poisson = auto: fft (uniform periodic extrusion along z)"
                                 : "numerics.poisson = auto: pcg, not fft: " + why;
}

void validate_run_and_output(const CaseConfig& c, const KeyOrigins& o) {
  if (c.run.end_time) require_positive(o, "run.end_time", *c.run.end_time);
  if (c.run.max_steps) at_least_one(o, "run.max_steps", *c.run.max_steps);
  non_negative(o, "run.progress_interval", c.run.progress_interval);
  non_negative(o, "run.watchdog_timeout", c.run.watchdog_timeout);
  if (c.output.directory.empty()) throw o.error("output.directory", "must not be empty");
  non_negative(o, "output.interval", c.output.interval);
  non_negative(o, "output.checkpoint_interval", c.output.checkpoint_interval);
  at_least_one(o, "output.checkpoint_keep", c.output.checkpoint_keep);
}

// The boundary tables against a mesh's patch names; `periodic` names the glued patches, which take
// no condition, and `mesh_what` says which mesh, for the messages.
void check_patches(const CaseConfig& c, const KeyOrigins& o, const std::vector<std::string>& patches,
                   const std::vector<std::string>& periodic, const std::string& mesh_what) {
  for (const BoundaryCondition& b : c.boundaries) {
    const std::string key = "boundary." + b.patch;
    if (contains(periodic, b.patch))
      throw o.error(key, "patch " + b.patch + " is periodic in " + mesh_what + " and takes no condition; remove [" + key + "]");
    if (!contains(patches, b.patch))
      throw o.error(key, mesh_what + " has no patch \"" + b.patch + "\" (its patches: " + join(patches) + ")");
  }
  std::vector<std::string> missing;
  for (const std::string& p : patches)
    if (c.find_boundary(p) == nullptr) missing.push_back(p);
  if (!missing.empty())
    throw o.error("boundary", "no condition for patch(es) " + join(missing) + " of " + mesh_what +
                                  "; add a [boundary.NAME] table with a type for each");
}

// The generator's patches of the periodic axes (periodic = true) or of the others.
std::vector<std::string> axis_patches(const MeshConfig& m, bool periodic) {
  std::vector<std::string> out;
  for (int i = 0; i < 3; ++i)
    if (m.periodic[i] == periodic) out.insert(out.end(), {std::string(1, 'x' + i) + "min", std::string(1, 'x' + i) + "max"});
  return out;
}

}  // namespace

std::vector<std::string> generated_patches(const MeshConfig& mesh) {
  if (mesh.generator == MeshGenerator::file) return {};
  return axis_patches(mesh, false);
}

void validate_case(CaseConfig& config) {
  CaseErrors errors;
  validate_case(config, errors);
  errors.throw_if_any(config.origins.file);
}

void validate_case(CaseConfig& config, CaseErrors& errors) {
  const KeyOrigins& o = config.origins;
  // Each section's first error, all reported together.
  errors.collect([&] { validate_mesh(config.mesh, o); });
  errors.collect([&] { validate_physics(config.physics, o); });
  errors.collect([&] { validate_bulk_velocity(config, o); });
  errors.collect([&] { validate_initial(config.initial, config.mesh, o); });
  errors.collect([&] { validate_numerics(config.numerics, config.mesh, o); });
  resolve_poisson_solver(config.numerics, config.mesh);
  errors.collect([&] { validate_run_and_output(config, o); });
  errors.collect([&] { validate_monitors(config); });
  if (config.mesh.generator == MeshGenerator::file) return;  // patches known once the file is read
  const std::string mesh_what = "the generated " + std::string(name(config.mesh.generator)) + " mesh";
  errors.collect([&] {
    check_patches(config, o, generated_patches(config.mesh), axis_patches(config.mesh, true), mesh_what);
  });
  errors.collect([&] { check_force_patches(config, o, generated_patches(config.mesh), mesh_what); });
}

void validate_boundaries(const CaseConfig& config, const mesh::Mesh& mesh, const std::string& case_path) {
  const KeyOrigins origins{case_path, config.origins.where};
  std::vector<std::string> patches, periodic;
  for (const mesh::Patch& p : mesh.patches) patches.push_back(p.name);
  for (const mesh::PeriodicLink& link : mesh.periodic_links) periodic.insert(periodic.end(), {link.patch_a, link.patch_b});
  check_patches(config, origins, patches, periodic, "the mesh");
  check_force_patches(config, origins, patches, "the mesh");
}

}  // namespace miniapp::cases
