// miniapp poisson: a periodic Poisson problem −L p = b with a known smooth solution, solved by PCG with
// each chosen preconditioner on the chosen backend: checks assembly, reordering, sELL and the solver,
// and compares Jacobi with AIP-1/2/3 in iterations and time to solution. --level-kernels times each kernel
// call of AMG's V-cycle on its two finest levels alone (miniapp/bench/amg_level_bench.hpp).
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numbers>
#include <optional>
#include <span>

#include <nlohmann/json.hpp>

#include "mesh/geometry.hpp"
#include "miniapp/bench/amg_level_bench.hpp"
#include "miniapp/bench/bandwidth.hpp"
#include "miniapp/bench/bench_output.hpp"
#include "miniapp/case/case_mesh.hpp"
#include "miniapp/cli/command_line.hpp"
#include "miniapp/cli/commands.hpp"
#include "miniapp/cli/mesh_options.hpp"
#include "operators/fv/flow_operators.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "operators/sparse/reorder.hpp"
#include "solvers/aip.hpp"
#include "solvers/amg/amg.hpp"
#include "solvers/identity.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::cli {

namespace {

struct PoissonSettings {
  std::string backend;
  cases::MeshConfig mesh;
  PcgOptions pcg;
  index_t slice_height = 0;  // 0: the backend's default
  std::vector<std::string> preconditioners;
  amg::AmgOptions amg;
  std::string export_prefix;  // empty: no export
  std::string json;           // empty: no JSON
  bool level_kernels = false;  // time each kernel call of AMG's two finest levels (--level-kernels)
};

// --level-kernels: AMG's levels timed (the finest and the next), and samples per kernel call.
constexpr int level_kernel_levels = 2, level_kernel_repeat = 20;

// One preconditioner's line of the report.
struct SolveRecord {
  std::string preconditioner;
  double setup_seconds = 0, solve_seconds = 0, relative_residual = 0;
  index_t iterations = 0;
  bool converged = false;
};

constexpr const char* preconditioner_names[] = {"none", "jacobi", "aip1", "aip2", "aip3", "amg"};

cxxopts::Options poisson_options() {
  cxxopts::Options options("miniapp poisson",
                           "Solves the Poisson problem -L p = b, b = -L p* for a smooth periodic p*, by PCG with\n"
                           "each chosen preconditioner (singular mode: constants are the null space) and reports\n"
                           "set-up time, iterations, solve time, residual and error; with one preconditioner also\n"
                           "the kernel counters.");
  options.add_options()
      ("backend", "auto, cpu or cuda", cxxopts::value<std::string>()->default_value("auto"))
      ("preconditioner", "none (plain CG), jacobi, aip1, aip2, aip3, amg, a comma-separated list, or all",
       cxxopts::value<std::string>()->default_value("all"))
      ("amg-aggregation", "amg: smoothed or plain aggregation", cxxopts::value<std::string>()->default_value("smoothed"))
      ("amg-degree", "amg: Chebyshev smoother degree (1: damped Jacobi)", cxxopts::value<std::string>()->default_value("1"))
      ("amg-strength", "amg: strength-of-connection threshold", cxxopts::value<std::string>()->default_value("0.08"))
      ("amg-ratio", "amg: the smoother damps eigenvalues of D^-1 A in [lambda_max / RATIO, lambda_max]",
       cxxopts::value<std::string>()->default_value("10"))
      ("amg-float", "amg: the hierarchy's matrices with float values, the time loop's default "
       "(numerics.amg_storage); without it double values, as docs/amg.md's solves were measured")
      ("level-kernels", "amg: after the solve, time each kernel call of the V-cycle on the two finest levels alone, "
       "on the level's own matrices and vectors, in GB/s and % of the copy bandwidth measured in the same run")
      ("tol", "relative residual tolerance ‖r‖/‖b‖", cxxopts::value<std::string>()->default_value("1e-8"))
      ("max-iter", "iteration cap", cxxopts::value<std::string>()->default_value("10000"))
      ("slice-height", "sELL slice height; auto: 32 on CUDA, 8 on CPU",
       cxxopts::value<std::string>()->default_value("auto"))
      ("export-matrix", "write -L, b and PREFIX.json as raw little-endian files PREFIX.row_ptr.i32, "
       "PREFIX.col.i32, PREFIX.val.f64, PREFIX.rhs.f64 (e.g. for tools/compare/cupy_cg_compare.py)",
       cxxopts::value<std::string>())
      ("json", "also write the results to this JSON file", cxxopts::value<std::string>())
      ("h,help", "print this help");
  add_mesh_options(options, MeshDefaults{.cells = "64,64,64", .periodic = "xyz"});
  return options;
}

PoissonSettings parse_settings(const cxxopts::ParseResult& result) {
  PoissonSettings s;
  s.backend = result["backend"].as<std::string>();
  if (s.backend != "auto" && s.backend != "cpu" && s.backend != "cuda")
    throw Error("--backend: '" + s.backend + "' is not auto, cpu or cuda");
  s.pcg.tolerance = option_double(result, "tol");
  if (!(s.pcg.tolerance > 0 && s.pcg.tolerance < 1))
    throw Error("--tol: " + result["tol"].as<std::string>() + " must lie in (0, 1)");
  s.pcg.max_iterations = option_index(result, "max-iter", 0, 1'000'000'000);
  s.pcg.singular = true;
  if (result["slice-height"].as<std::string>() != "auto")
    s.slice_height = option_index(result, "slice-height", 1, 1024);
  s.mesh = parse_mesh_options(result);
  if (result.count("export-matrix")) s.export_prefix = result["export-matrix"].as<std::string>();
  if (result.count("json")) s.json = result["json"].as<std::string>();
  const std::string chosen = result["preconditioner"].as<std::string>();
  s.preconditioners = chosen == "all" ? std::vector<std::string>(std::begin(preconditioner_names),
                                                                  std::end(preconditioner_names))
                                      : split_list(chosen);
  for (const auto& name : s.preconditioners)
    if (std::find(std::begin(preconditioner_names), std::end(preconditioner_names), name) ==
        std::end(preconditioner_names))
      throw Error("--preconditioner: '" + name + "' is not none, jacobi, aip1, aip2, aip3, amg or all");
  const std::string aggregation = result["amg-aggregation"].as<std::string>();
  if (aggregation != "smoothed" && aggregation != "plain")
    throw Error("--amg-aggregation: '" + aggregation + "' is not smoothed or plain");
  s.amg.smoothed = aggregation == "smoothed";
  s.amg.smoother_degree = static_cast<int>(option_index(result, "amg-degree", 1, 8));
  s.amg.strength_threshold = option_double(result, "amg-strength");
  s.amg.smoother_ratio = option_double(result, "amg-ratio");
  s.amg.float_storage = result.count("amg-float") > 0;
  s.level_kernels = result.count("level-kernels") > 0;
  if (s.level_kernels &&
      std::find(s.preconditioners.begin(), s.preconditioners.end(), "amg") == s.preconditioners.end())
    throw Error("--level-kernels times AMG's cycle: add amg to --preconditioner");
  return s;
}

// The system A = −L in the time loop's row order (fv::default_cell_order), the exact solution p* and
// b = A p*.
struct PoissonProblem {
  CsrMatrix a;
  std::vector<double> exact, rhs;
};

// p* = Π_i sin(θ_i + ½ sin θ_{i+1}), θ_i = 2π (x_i − lo_i) / L_i over the bounding box of the mesh:
// smooth and periodic on a periodic box. A plain sin θ_x sin θ_y sin θ_z would be an eigenvector of L
// on a uniform periodic box, solved by PCG in one iteration; the phase warp spreads p* over many
// Fourier modes so that the solve is representative.
std::vector<double> smooth_field(const mesh::Mesh& m, const mesh::MeshGeometry& geometry) {
  Vec3 lo = m.nodes.front(), hi = m.nodes.front();
  for (const Vec3& x : m.nodes)
    for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], x[i]), hi[i] = std::max(hi[i], x[i]);
  std::vector<double> field;
  field.reserve(geometry.cell_centroid.size());
  for (const Vec3& c : geometry.cell_centroid) {
    Vec3 theta;
    for (int i = 0; i < 3; ++i) theta[i] = 2 * std::numbers::pi * (c[i] - lo[i]) / (hi[i] - lo[i]);
    double value = 1;
    for (int i = 0; i < 3; ++i) value *= std::sin(theta[i] + 0.5 * std::sin(theta[(i + 1) % 3]));
    field.push_back(value);
  }
  return field;
}

PoissonProblem assemble_problem(const mesh::Mesh& m) {
  const mesh::MeshGeometry geometry = mesh::compute_geometry(m);
  CsrMatrix a = fv::laplacian_matrix(m, geometry);
  for (double& v : a.val) v = -v;
  const Permutation order = fv::default_cell_order(m, a);
  PoissonProblem problem;
  problem.a = permute_symmetric(a, order);
  problem.exact = permute_vector(smooth_field(m, geometry), order);
  problem.rhs = reference_spmv(problem.a, problem.exact);
  return problem;
}

// max |e − mean(e)| with e = p − p*: the error up to the arbitrary constant of a singular problem.
double max_error_without_mean(const std::vector<double>& p, const std::vector<double>& exact) {
  double mean = 0;
  for (std::size_t i = 0; i < p.size(); ++i) mean += p[i] - exact[i];
  mean /= static_cast<double>(p.size());
  double error = 0;
  for (std::size_t i = 0; i < p.size(); ++i) error = std::max(error, std::abs(p[i] - exact[i] - mean));
  return error;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Prints the levels of an AMG hierarchy (rows and non-zeros per level, operator complexity) and the
// wall time of each set-up stage.
void print_hierarchy(const Amg& amg) {
  std::cout << "  levels, rows (non-zeros):";
  for (const auto& level : amg.level_sizes()) std::cout << " " << level.rows << " (" << level.nnz << ")";
  std::cout << "; operator complexity " << amg.operator_complexity() << "\n  set-up stages:\n";
  amg::print_setup_profile(amg.setup_profile(), std::cout);
}

// AMG's finest level is the solver's own matrix `device_a` (no second copy).
std::unique_ptr<Preconditioner> make_preconditioner(const std::string& name, const Executor& exec,
                                                    const CsrMatrix& a, const DeviceSell& device_a,
                                                    const PoissonSettings& s, index_t slice_height) {
  if (name == "none") return std::make_unique<Identity>(exec, a.rows);
  if (name == "jacobi") return std::make_unique<Jacobi>(exec, a);
  if (name == "amg") return std::make_unique<Amg>(exec, a, s.amg, slice_height, &device_a);
  return std::make_unique<Aip>(exec, a, name.back() - '0', slice_height);
}

// The raw bytes of `values` (little-endian on every platform we build for) to `path`.
template <class T>
void write_raw(const std::string& path, std::span<const T> values) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw file_error(path, std::string("cannot open for writing (given by --export-matrix): ") +
                                       std::strerror(errno));
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(T)));
  if (!out) throw file_error(path, "write failed");
}

// PREFIX.row_ptr.i32 (rows + 1 int32), PREFIX.col.i32 (nnz int32), PREFIX.val.f64 (nnz float64),
// PREFIX.rhs.f64 (rows float64), and PREFIX.json with the sizes and the tolerance.
void export_problem(const std::string& prefix, const PoissonProblem& problem, const PoissonSettings& s) {
  write_raw<index_t>(prefix + ".row_ptr.i32", problem.a.row_ptr);
  write_raw<index_t>(prefix + ".col.i32", problem.a.col);
  write_raw<double>(prefix + ".val.f64", problem.a.val);
  write_raw<double>(prefix + ".rhs.f64", problem.rhs);
  bench::write_json_file(prefix + ".json",
                         {{"rows", problem.a.rows}, {"nnz", problem.a.nnz()}, {"tolerance", s.pcg.tolerance},
                          {"max_iterations", s.pcg.max_iterations}, {"mesh", describe(s.mesh)}},
                         "--export-matrix");
}

// AMG's level kernels (--level-kernels), in the JSON report beside the solves.
struct LevelKernelReport {
  double copy_gb_per_s = 0;
  std::vector<Amg::LevelSize> levels;
  std::vector<bench::LevelKernelRecord> records;
};

void write_results_json(const std::string& path, const std::string& device, const CsrMatrix& a,
                        const PoissonSettings& s, index_t slice_height, double upload_seconds,
                        const std::vector<SolveRecord>& records, const LevelKernelReport* level_kernels) {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const SolveRecord& r : records)
    results.push_back({{"preconditioner", r.preconditioner}, {"setup_seconds", r.setup_seconds},
                       {"solve_seconds", r.solve_seconds}, {"iterations", r.iterations},
                       {"relative_residual", r.relative_residual}, {"converged", r.converged}});
  nlohmann::ordered_json document = {{"device", device},
                                     {"mesh", describe(s.mesh)},
                                     {"rows", a.rows},
                                     {"nnz", a.nnz()},
                                     {"slice_height", slice_height},
                                     {"tolerance", s.pcg.tolerance},
                                     {"upload_seconds", upload_seconds},
                                     {"results", std::move(results)}};
  if (level_kernels) {
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (const Amg::LevelSize& l : level_kernels->levels) levels.push_back({{"rows", l.rows}, {"nnz", l.nnz}});
    document["copy_bandwidth_gb_per_s"] = level_kernels->copy_gb_per_s;
    document["amg_levels"] = std::move(levels);
    document["level_kernels"] = bench::level_kernels_json(level_kernels->records, level_kernels->copy_gb_per_s);
  }
  bench::write_json_file(path, document, "--json");
}

}  // namespace

int poisson_command(int argc, char** argv) {
  auto options = poisson_options();
  const auto result = parse_command_line(options, argc, argv);
  if (!result) return 0;
  const PoissonSettings s = parse_settings(*result);
  const Executor exec = Executor::from_name(s.backend);
  const index_t slice_height = s.slice_height > 0 ? s.slice_height : exec.default_slice_height();

  auto start = std::chrono::steady_clock::now();
  const mesh::Mesh m = cases::make_case_mesh(s.mesh);
  const PoissonProblem problem = assemble_problem(m);
  if (!s.export_prefix.empty()) export_problem(s.export_prefix, problem, s);
  const double assembly_seconds = seconds_since(start);
  // The matrix and b from the host to the executor: what any solver pays before its first solve.
  start = std::chrono::steady_clock::now();
  const SellMatrix sell = to_sell(problem.a, slice_height);
  const DeviceSell a(exec, sell);
  const Vector b = Vector::from_host(exec, problem.rhs);
  exec.synchronize();
  const double upload_seconds = seconds_since(start);
  std::cout << "mesh          " << describe(s.mesh) << ": " << m.cell_count() << " cells, " << m.face_count()
            << " faces\n"
            << "backend       " << exec.description() << "\n"
            << "matrix        -L: " << problem.a.rows << " rows, " << problem.a.nnz() << " non-zeros; sELL slice height "
            << slice_height << ", " << sell.stored_entries() << " stored entries\n"
            << "setup time    " << assembly_seconds << " s (mesh, assembly, reordering), " << upload_seconds
            << " s (sELL conversion, matrix and b to the executor)\n\n"
            << "preconditioner  setup (s)  iterations  solve (s)  total (s)  residual   max error\n";

  Vector x(exec, problem.a.rows);
  Pcg pcg(exec, problem.a.rows);
  bool all_converged = true;
  std::vector<SolveRecord> records;
  KernelCounters solve_counters;  // the last solve's
  std::optional<LevelKernelReport> level_kernels;
  for (const auto& name : s.preconditioners) {
    start = std::chrono::steady_clock::now();
    const auto preconditioner = make_preconditioner(name, exec, problem.a, a, s, slice_height);
    exec.synchronize();
    const double setup_seconds = seconds_since(start);
    fill(exec, 0.0, x);
    exec.counters().reset();
    exec.synchronize();
    start = std::chrono::steady_clock::now();
    const PcgResult solved = pcg.solve(a, *preconditioner, b, x, s.pcg);
    exec.synchronize();
    const double solve_seconds = seconds_since(start);
    solve_counters = exec.counters();
    std::cout << std::left << std::setw(16) << name << std::right << std::fixed << std::setprecision(3)
              << std::setw(9) << setup_seconds << std::setw(12) << solved.iterations << std::setw(11)
              << solve_seconds << std::setw(11) << setup_seconds + solve_seconds << std::scientific
              << std::setprecision(2) << std::setw(11) << solved.relative_residual << std::setw(11)
              << max_error_without_mean(x.to_host(), problem.exact) << std::defaultfloat
              << (solved.converged ? "" : "  NOT converged") << "\n";
    if (const auto* amg = dynamic_cast<const Amg*>(preconditioner.get())) {
      print_hierarchy(*amg);
      if (s.level_kernels) {
        level_kernels.emplace();
        level_kernels->copy_gb_per_s = bench::copy_bandwidth(exec, 9);
        level_kernels->levels = amg->level_sizes();
        level_kernels->records = bench::time_level_kernels(exec, *amg, level_kernel_levels, level_kernel_repeat);
        bench::print_level_kernels(std::cout, level_kernels->records, level_kernels->levels,
                                   level_kernels->copy_gb_per_s, level_kernel_repeat);
        std::cout << "\n";
      }
    }
    if (!solved.converged) std::cerr << "miniapp poisson: " << name << ": " << solved.warning << "\n";
    all_converged = all_converged && solved.converged;
    records.push_back({name, setup_seconds, solve_seconds, solved.relative_residual, solved.iterations,
                       solved.converged});
  }
  if (s.preconditioners.size() == 1) {
    std::cout << "\nkernel counters (solve):\n";
    solve_counters.print(std::cout);
  }
  if (!s.json.empty())
    write_results_json(s.json, exec.description(), problem.a, s, slice_height, upload_seconds, records,
                       level_kernels ? &*level_kernels : nullptr);
  return all_converged ? 0 : 1;
}

}  // namespace miniapp::cli
