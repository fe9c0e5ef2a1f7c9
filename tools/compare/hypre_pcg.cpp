// hypre's BoomerAMG as the preconditioner of hypre's PCG, on a system that `miniapp poisson
// --export-matrix PREFIX` wrote (−L in miniapp's row order and b, raw little-endian arrays; PREFIX.json
// their sizes and the tolerance): the peer of miniapp's AMG-preconditioned CG, on one MPI rank.
//
// Usage: hypre_pcg PREFIX [--settings default|3d] [--repeat N]
//   default: BoomerAMG as hypre 2.26 sets it up untouched;
//   3d: the settings hypre's documentation suggests for 3D diffusion (strength 0.5, HMIS coarsening,
//       extended+i interpolation with at most 4 entries a row, one sweep of hybrid symmetric
//       Gauss–Seidel), as a user tuning it would pick them.
// In both, the coarsest level gets one sweep of that smoother instead of Gaussian elimination: the
// system is singular (constants in the null space, b of zero sum), as miniapp's pressure systems are.
// PCG stops at ‖r‖₂ / ‖b‖₂ below the exported tolerance from x = 0, as miniapp's does. Prints hypre's
// summary of the hierarchy (first repeat), then per repeat the set-up and solve wall times, the
// iterations and the final relative residual, then the medians.
#include <HYPRE.h>
#include <HYPRE_krylov.h>
#include <HYPRE_parcsr_ls.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

template <class T>
std::vector<T> read_array(const std::string& path, std::size_t size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::vector<T> data(size);
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(sizeof(T) * size));
  if (static_cast<std::size_t>(in.gcount()) != sizeof(T) * size || in.peek() != EOF)
    throw std::runtime_error(path + ": not " + std::to_string(size) + " values, as the .json says");
  return data;
}

struct System {
  int rows = 0, max_iterations = 0;
  double tolerance = 0;
  std::vector<std::int32_t> row_ptr, col;
  std::vector<double> val, rhs;
};

System load(const std::string& prefix) {
  std::ifstream meta_file(prefix + ".json");
  if (!meta_file) throw std::runtime_error(prefix + ".json: cannot open");
  const nlohmann::json meta = nlohmann::json::parse(meta_file);
  System s;
  s.rows = meta.at("rows").get<int>();
  const auto nnz = meta.at("nnz").get<std::size_t>();
  s.tolerance = meta.at("tolerance").get<double>();
  s.max_iterations = meta.at("max_iterations").get<int>();
  s.row_ptr = read_array<std::int32_t>(prefix + ".row_ptr.i32", static_cast<std::size_t>(s.rows) + 1);
  s.col = read_array<std::int32_t>(prefix + ".col.i32", nnz);
  s.val = read_array<double>(prefix + ".val.f64", nnz);
  s.rhs = read_array<double>(prefix + ".rhs.f64", static_cast<std::size_t>(s.rows));
  return s;
}

void check(HYPRE_Int code, const char* call) {
  if (code != 0) {
    char text[256] = {};
    HYPRE_DescribeError(code, text);
    throw std::runtime_error(std::string(call) + ": hypre error " + std::to_string(code) + " (" + text + ")");
  }
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Outcome {
  double setup_seconds = 0, solve_seconds = 0, relative_residual = 0;
  HYPRE_Int iterations = 0;
};

// One set-up and solve from x = 0 (`rows`: the row indices 0 .. n − 1, as hypre's IJ calls take them).
Outcome solve_once(const System& s, const std::vector<HYPRE_BigInt>& rows, HYPRE_ParCSRMatrix a, HYPRE_ParVector b,
                   HYPRE_ParVector x, HYPRE_IJVector x_ij, bool tuned, bool print_hierarchy) {
  const std::vector<double> zeros(static_cast<std::size_t>(s.rows), 0.0);
  check(HYPRE_IJVectorSetValues(x_ij, s.rows, rows.data(), zeros.data()), "HYPRE_IJVectorSetValues(x)");

  HYPRE_Solver pcg = nullptr, amg = nullptr;
  check(HYPRE_ParCSRPCGCreate(MPI_COMM_WORLD, &pcg), "HYPRE_ParCSRPCGCreate");
  HYPRE_PCGSetTol(pcg, s.tolerance);
  HYPRE_PCGSetAbsoluteTol(pcg, 0.0);
  HYPRE_PCGSetTwoNorm(pcg, 1);
  HYPRE_PCGSetMaxIter(pcg, s.max_iterations);
  check(HYPRE_BoomerAMGCreate(&amg), "HYPRE_BoomerAMGCreate");
  HYPRE_BoomerAMGSetMaxIter(amg, 1);
  HYPRE_BoomerAMGSetTol(amg, 0.0);
  // Its levels, rows, non-zeros and complexities, printed by hypre during the set-up.
  HYPRE_BoomerAMGSetPrintLevel(amg, print_hierarchy ? 1 : 0);
  if (tuned) {
    HYPRE_BoomerAMGSetStrongThreshold(amg, 0.5);
    HYPRE_BoomerAMGSetCoarsenType(amg, 10);  // HMIS
    HYPRE_BoomerAMGSetInterpType(amg, 6);    // extended+i
    HYPRE_BoomerAMGSetPMaxElmts(amg, 4);
    HYPRE_BoomerAMGSetRelaxType(amg, 6);     // hybrid symmetric Gauss–Seidel
    HYPRE_BoomerAMGSetNumSweeps(amg, 1);
  }
  // The coarsest level relaxed, not solved by Gaussian elimination, which breaks down on its singular
  // matrix (PCG then stops within a dozen iterations, "did not converge").
  HYPRE_BoomerAMGSetCycleRelaxType(amg, 6, 3);
  HYPRE_BoomerAMGSetCycleNumSweeps(amg, 1, 3);
  HYPRE_PCGSetPrecond(pcg, reinterpret_cast<HYPRE_PtrToSolverFcn>(HYPRE_BoomerAMGSolve),
                      reinterpret_cast<HYPRE_PtrToSolverFcn>(HYPRE_BoomerAMGSetup), amg);

  Outcome o;
  auto t0 = std::chrono::steady_clock::now();
  check(HYPRE_ParCSRPCGSetup(pcg, a, b, x), "HYPRE_ParCSRPCGSetup");
  o.setup_seconds = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  const HYPRE_Int solved = HYPRE_ParCSRPCGSolve(pcg, a, b, x);
  o.solve_seconds = seconds_since(t0);
  if (solved != 0) {
    char text[256] = {};
    HYPRE_DescribeError(solved, text);
    std::printf("  hypre's PCG returned %d (%s)\n", static_cast<int>(solved), text);
    HYPRE_ClearAllErrors();
  }
  HYPRE_PCGGetNumIterations(pcg, &o.iterations);
  HYPRE_PCGGetFinalRelativeResidualNorm(pcg, &o.relative_residual);
  HYPRE_BoomerAMGDestroy(amg);
  HYPRE_ParCSRPCGDestroy(pcg);
  return o;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int run(int argc, char** argv) {
  if (argc < 2) throw std::runtime_error("usage: hypre_pcg PREFIX [--settings default|3d] [--repeat N]");
  const std::string prefix = argv[1];
  std::string settings = "default";
  int repeat = 3;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--settings") settings = argv[i + 1];
    else if (key == "--repeat") repeat = std::stoi(argv[i + 1]);
    else throw std::runtime_error("unknown option " + key);
  }
  if (settings != "default" && settings != "3d") throw std::runtime_error("--settings: default or 3d");
  if (repeat < 1) throw std::runtime_error("--repeat: at least 1");
  const System s = load(prefix);

  check(HYPRE_Init(), "HYPRE_Init");
  HYPRE_IJMatrix a_ij = nullptr;
  HYPRE_IJVector b_ij = nullptr, x_ij = nullptr;
  const HYPRE_BigInt last = s.rows - 1;
  check(HYPRE_IJMatrixCreate(MPI_COMM_WORLD, 0, last, 0, last, &a_ij), "HYPRE_IJMatrixCreate");
  HYPRE_IJMatrixSetObjectType(a_ij, HYPRE_PARCSR);
  std::vector<HYPRE_Int> row_sizes(static_cast<std::size_t>(s.rows));
  for (int i = 0; i < s.rows; ++i) row_sizes[static_cast<std::size_t>(i)] = s.row_ptr[i + 1] - s.row_ptr[i];
  HYPRE_IJMatrixSetRowSizes(a_ij, row_sizes.data());
  check(HYPRE_IJMatrixInitialize(a_ij), "HYPRE_IJMatrixInitialize");
  std::vector<HYPRE_BigInt> rows(static_cast<std::size_t>(s.rows)), cols(s.col.begin(), s.col.end());
  for (int i = 0; i < s.rows; ++i) rows[static_cast<std::size_t>(i)] = i;
  check(HYPRE_IJMatrixSetValues(a_ij, s.rows, row_sizes.data(), rows.data(), cols.data(), s.val.data()),
        "HYPRE_IJMatrixSetValues");
  check(HYPRE_IJMatrixAssemble(a_ij), "HYPRE_IJMatrixAssemble");
  HYPRE_ParCSRMatrix a = nullptr;
  HYPRE_IJMatrixGetObject(a_ij, reinterpret_cast<void**>(&a));

  for (HYPRE_IJVector* v : {&b_ij, &x_ij}) {
    check(HYPRE_IJVectorCreate(MPI_COMM_WORLD, 0, last, v), "HYPRE_IJVectorCreate");
    HYPRE_IJVectorSetObjectType(*v, HYPRE_PARCSR);
    check(HYPRE_IJVectorInitialize(*v), "HYPRE_IJVectorInitialize");
  }
  check(HYPRE_IJVectorSetValues(b_ij, s.rows, rows.data(), s.rhs.data()), "HYPRE_IJVectorSetValues(b)");
  for (HYPRE_IJVector v : {b_ij, x_ij}) check(HYPRE_IJVectorAssemble(v), "HYPRE_IJVectorAssemble");
  HYPRE_ParVector b = nullptr, x = nullptr;
  HYPRE_IJVectorGetObject(b_ij, reinterpret_cast<void**>(&b));
  HYPRE_IJVectorGetObject(x_ij, reinterpret_cast<void**>(&x));

  std::printf("hypre BoomerAMG-PCG (%s settings), %d rows, %zu non-zeros, tolerance %.1e\n", settings.c_str(),
              s.rows, s.val.size(), s.tolerance);
  std::printf("%8s %12s %12s %12s %12s\n", "repeat", "setup (s)", "iterations", "solve (s)", "residual");
  std::vector<double> setups, solves;
  for (int r = 0; r < repeat; ++r) {
    const Outcome o = solve_once(s, rows, a, b, x, x_ij, settings == "3d", r == 0);
    std::printf("%8d %12.4f %12d %12.4f %12.2e\n", r + 1, o.setup_seconds,
                static_cast<int>(o.iterations), o.solve_seconds, o.relative_residual);
    if (!(o.relative_residual <= s.tolerance)) std::printf("  NOT converged\n");
    setups.push_back(o.setup_seconds);
    solves.push_back(o.solve_seconds);
  }
  std::printf("median   setup %.4f s, solve %.4f s, total %.4f s\n", median(setups), median(solves),
              median(setups) + median(solves));
  HYPRE_IJMatrixDestroy(a_ij);
  HYPRE_IJVectorDestroy(b_ij);
  HYPRE_IJVectorDestroy(x_ij);
  HYPRE_Finalize();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    status = run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "hypre_pcg: " << e.what() << "\n";
    status = 1;
  }
  MPI_Finalize();
  return status;
}
