#pragma once
#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/physics.hpp"
#include "core/types.hpp"
#include "core/vec3.hpp"
#include "core/vtk_compression.hpp"

// A case, as read from its TOML file (docs/case-files.md describes every key). The file is parsed
// once into these structs; everything after start-up reads typed members, never keys.
namespace miniapp::cases {

enum class MeshGenerator { hex, tet, prism, file };
// How a mesh is split over several ranks: METIS on the whole mesh's cell graph, or (generated hex and
// tet boxes) slabs of whole z-layers that each rank generates for itself, with no global mesh.
enum class Decomposition { metis, z_layers };

struct MeshConfig {
  MeshGenerator generator = MeshGenerator::hex;
  // Generators (hex, tet, prism).
  std::array<index_t, 3> cells{1, 1, 1};
  Vec3 length{1, 1, 1};
  Vec3 origin{0, 0, 0};
  std::array<double, 3> stretch{0, 0, 0};   // tanh clustering towards both ends of each axis
  std::array<bool, 3> periodic{false, false, false};
  // generator = "file": the mesh file (resolved against the case file's folder); layers > 0 extrudes
  // a 2D file over length_z (periodic in z where periodic[2]: always from a case file); layers = 0
  // reads a 3D file, its periodic axes gluing patches <axis>min and <axis>max, length apart (the
  // command line's --periodic; a case file has none).
  std::string file;
  index_t layers = 0;
  double length_z = 0;
  Decomposition decomposition = Decomposition::metis;
};

using miniapp::LesModel;

struct PhysicsConfig {
  double nu = 0;  // kinematic viscosity, from nu or from U L / re
  double re = 0;  // U L / nu, from re or from nu
  double reference_velocity = 1;
  double reference_length = 1;
  Vec3 body_force{0, 0, 0};  // constant acceleration, e.g. the mean pressure gradient of a channel
  // Held bulk velocity U e: the driving force is adjusted every step to keep Σ Ω u·e / Σ Ω at U.
  std::optional<Vec3> bulk_velocity;
  LesModel les = LesModel::none;
  double les_constant = 0;  // the model's default unless set
};

// channel: a turbulent channel's mean profile with near-wall streaks (time/channel_start.hpp).
enum class InitialType { rest, uniform, taylor_green_2d, taylor_green_3d, channel };

struct InitialConfig {
  InitialType type = InitialType::rest;
  Vec3 velocity{0, 0, 0};  // uniform
  double amplitude = 1;    // Taylor-Green vortices; channel streaks (in units of the reference velocity)
  double perturbation = 0; // random perturbation, relative to the reference velocity
};

using BoundaryType = miniapp::BoundaryKind;

struct BoundaryCondition {
  std::string patch;
  BoundaryType type = BoundaryType::wall;
  Vec3 velocity{0, 0, 0};  // moving-wall and inlet
};

enum class Backend { automatic, cpu, cuda };
// automatic: resolve_preconditioner (preconditioner_choice.hpp) picks one once the mesh is made.
enum class Preconditioner { automatic, jacobi, aip1, aip2, aip3, amg };
// The AIP apply: automatic takes whichever of two passes (G, then Gᵀ) and one pass with the product
// Gᵀ G moves fewer bytes on the case's matrix (solvers/aip.hpp).
enum class AipFormChoice { automatic, two_pass, product };
// The values of AMG's matrices in executor memory (solvers/amg/amg_options.hpp).
enum class AmgStorage { double_values, float_values };
// automatic: fft where the mesh is a uniform periodic extrusion along z with an even Nper, else pcg;
// validate_case resolves it, so a validated case holds pcg or fft.
enum class PoissonSolver { automatic, pcg, fft };
// How the controller bounds Δt (miniapp/time/time_step_control.hpp): one Gershgorin disc per cell, or
// the eigenvalue rectangle against the Adams–Bashforth 2 stability region.
enum class TimeStepMethod { cfl, eigenvalue };

struct NumericsConfig {
  Backend backend = Backend::automatic;
  TimeStepMethod time_step = TimeStepMethod::cfl;
  double cfl = 0.5;              // fraction of the time_step method's stability limit, in (0, 1]
  double max_kappa = 0.5;        // "eigenvalue": the largest κ of the κ-scheme per step, in [0.5, 1]
  std::optional<double> dt;      // fixed time step; absent: the CFL controller chooses
  std::optional<double> max_dt;  // upper bound for the CFL controller
  double poisson_tolerance = 1e-8;
  index_t poisson_max_iterations = 1000;
  Preconditioner preconditioner = Preconditioner::automatic;
  std::string preconditioner_choice;  // what "auto" chose and why; for the log
  AipFormChoice aip_form = AipFormChoice::automatic;
  AmgStorage amg_storage = AmgStorage::float_values;
  // AMG on several ranks: levels below the finest of at most this many rows gathered onto every rank
  // (solvers/amg/amg_options.hpp); unset: AmgOptions' default.
  std::optional<index_t> amg_redundant_rows;
  PoissonSolver poisson = PoissonSolver::automatic;
  // The FFT path: blocks of the lowest frequencies preconditioned by AIP-1 or AMG (the others by
  // Jacobi), 0..8; −1: chosen at set-up by timed solves.
  int fft_low_frequency_blocks = -1;
  std::string poisson_choice;  // what "auto" chose and why (the failed condition for pcg); for the log
  index_t slice_height = 0;  // sliced ELLPACK slice height, 0 = backend default
};

struct RunConfig {
  std::optional<double> end_time;
  std::optional<long long> max_steps;
  double progress_interval = 2;  // wall-clock seconds between progress lines
  double watchdog_timeout = 600; // several ranks: wall-clock seconds a rank may stay silent; 0 = no limit
};

enum class OutputField { velocity, pressure, eddy_viscosity, vorticity, q_criterion };
using miniapp::VtkCompression;

struct OutputConfig {
  std::string directory;           // default output/<case name>
  double interval = 0;             // simulated time between VTK outputs; 0 = only at the start and the end
  double checkpoint_interval = 0;  // simulated time between checkpoints; 0 = only at the end
  index_t checkpoint_keep = 2;     // complete checkpoint generations kept (the newest ones)
  std::vector<OutputField> fields;
  VtkCompression compression = VtkCompression::lz4;  // of the VTK pieces' arrays
  long long diagnostics_interval = 1;  // steps between rows of diagnostics.csv, forces and probes
  // Steps between the rows that also give enstrophy and max_div (a pass over the mesh each).
  long long enstrophy_divergence_interval = 10;

  bool has(OutputField f) const;
};

// Time averages of the cell fields from start_time on ([statistics]; absent: none), and optionally
// profiles along one axis averaged over the two others, which must be periodic.
struct StatisticsConfig {
  bool enabled = false;
  double start_time = 0;
  // Steps between samples: neighbouring steps' fields differ by a fraction of a cell's transit, so
  // sampling every step costs bytes (a sixth of a cheap step) and adds little information.
  long long sample_interval = 10;
  std::optional<int> profile_axis;  // 0, 1, 2 for x, y, z
};

// The force of the fluid on one patch ([forces.<patch>]), as coefficients F·e / (½ U² A).
struct ForcesConfig {
  std::string patch;
  double reference_area = 0;
  double reference_velocity = 1;  // default physics.reference_velocity
  double reference_length = 1;    // default physics.reference_length (Strouhal number f L / U)
  Vec3 drag_direction{1, 0, 0};   // unit vectors (normalised when read)
  Vec3 lift_direction{0, 1, 0};
};

// A point where velocity and pressure are recorded ([probes.<name>]).
struct ProbeConfig {
  std::string name;
  Vec3 position{0, 0, 0};
};

// Where each key's value came from, for error messages after parsing: a line of the case file, or
// the --set argument that overrode it. Holds exactly the keys the case gives.
struct KeyOrigins {
  std::string file;
  std::map<std::string, std::string, std::less<>> where;  // dotted key -> "12" (line) or "--set ARG"

  bool has(std::string_view key) const { return where.find(key) != where.end(); }

  // "FILE:LINE: key: reason", or "FILE: key (--set ARG): reason" for an overridden key; a table
  // without an origin of its own takes its first key's; "FILE: key: reason" for an absent key.
  Error error(std::string_view key, std::string_view reason) const;
};

struct CaseConfig {
  std::string name;
  std::string description;
  MeshConfig mesh;
  PhysicsConfig physics;
  InitialConfig initial;
  std::vector<BoundaryCondition> boundaries;  // ordered by patch name
  NumericsConfig numerics;
  RunConfig run;
  OutputConfig output;
  StatisticsConfig statistics;
  std::vector<ForcesConfig> forces;  // ordered by patch name
  std::vector<ProbeConfig> probes;   // ordered by name

  KeyOrigins origins;
  std::vector<std::string> warnings;  // valid but suspicious settings, for the caller to print

  // The condition of a patch, or nullptr.
  const BoundaryCondition* find_boundary(std::string_view patch) const;
};

// Names as written in case files (the inverse of parsing), for reports and messages.
std::string_view name(MeshGenerator g);
std::string_view name(Decomposition d);
std::string_view name(LesModel m);
std::string_view name(InitialType t);
std::string_view name(BoundaryType t);
std::string_view name(Backend b);
std::string_view name(Preconditioner p);
std::string_view name(AipFormChoice f);
std::string_view name(PoissonSolver p);
std::string_view name(TimeStepMethod m);
std::string_view name(OutputField f);

}  // namespace miniapp::cases
