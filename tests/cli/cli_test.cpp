// Runs the built miniapp binary (MINIAPP_BINARY) and checks its exit codes and messages.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Run {
  int status = -1;
  std::string output;  // stdout and stderr together
};

// A shell command's status and output.
Run run_command(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  Run run;
  std::array<char, 4096> buffer{};
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) run.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// `shell_prefix`: shell commands run before the binary in the same shell (a ulimit).
Run run_miniapp(const std::string& arguments, const std::string& shell_prefix = "") {
  return run_command(shell_prefix + std::string("'") + MINIAPP_BINARY + "' " + arguments + " 2>&1");
}

}  // namespace

using Catch::Contains;

TEST_CASE("miniapp --help lists the commands", "[cli]") {
  const Run r = run_miniapp("--help");
  CHECK(r.status == 0);
  for (const char* command : {"run", "list", "mesh", "poisson", "bench"}) CHECK_THAT(r.output, Contains(command));
}

TEST_CASE("miniapp bench fft runs on the CPU and on a CUDA device where there is one", "[cli][fft]") {
  const std::string sizes = " --plane-cells 400 --nper 4 --repeat 1";
  const Run cpu = run_miniapp("bench fft --backend cpu" + sizes);
  CHECK(cpu.status == 0);
  CHECK_THAT(cpu.output, Contains("FFT Poisson vs 3D AIP-CG on cpu"));
  // On CUDA the solver's lines are padded past the systems (mode_stride): the bench must lay its
  // vectors out alike. Without the backend or a device, the one message naming that.
  const Run cuda = run_miniapp("bench fft --backend cuda" + sizes);
  CAPTURE(cuda.output);
  if (cuda.output.find("built without the CUDA backend") != std::string::npos ||
      cuda.output.find("no CUDA device is visible") != std::string::npos) {
    CHECK(cuda.status != 0);
  } else {
    CHECK(cuda.status == 0);
    CHECK_THAT(cuda.output, Contains("FFT Poisson vs 3D AIP-CG on cuda"));
  }
}

TEST_CASE("miniapp --version names the commit the source tree is at", "[cli]") {
  const Run r = run_miniapp("--version");
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::StartsWith("miniapp "));
  // The source tree's commit now: the build writes it at every build, so a commit since the last cmake
  // run is the one named.
  const Run head = run_command(std::string("git -C '") + MINIAPP_SOURCE_DIR + "' rev-parse --short=12 HEAD 2>/dev/null");
  if (head.status == 0 && head.output.size() >= 12) CHECK_THAT(r.output, Contains("miniapp " + head.output.substr(0, 12)));
  else CHECK_THAT(r.output, Contains("miniapp unknown"));
}

TEST_CASE("every subcommand answers --help with its own options", "[cli]") {
  const std::pair<const char*, const char*> commands[] = {{"run --help", "--restart"},
                                                          {"list --help", "--help"},
                                                          {"mesh --help", "--mesh"},
                                                          {"poisson --help", "--preconditioner"},
                                                          {"bench kernels --help", "--mesh-sizes"},
                                                          {"bench step --help", "--steps"}};
  for (const auto& [args, option] : commands) {
    const Run r = run_miniapp(args);
    INFO(args << "\n" << r.output);
    CHECK(r.status == 0);
    CHECK_THAT(r.output, Contains("usage") || Contains("Usage"));
    CHECK_THAT(r.output, Contains(option));
  }
}

TEST_CASE("an unknown subcommand is named in the error", "[cli]") {
  const Run r = run_miniapp("frobnicate");
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Contains("frobnicate"));
  const Run bench = run_miniapp("bench sorting");
  CHECK(bench.status != 0);
  CHECK_THAT(bench.output, Contains("sorting"));
}

TEST_CASE("an unknown option is rejected with a message", "[cli]") {
  for (const char* args : {"run --no-such-option", "mesh --no-such-option", "poisson --no-such-option", "bench kernels --no-such-option"}) {
    const Run r = run_miniapp(args);
    INFO(args << "\n" << r.output);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Contains("no-such-option"));
  }
}

TEST_CASE("bad option values are reported with the option's name", "[cli]") {
  const struct {
    const char* args;
    const char* option;
  } cases[] = {{"mesh --cells 0,4,4", "--cells"},        {"mesh --cells 4,4", "--cells"},
               {"mesh --length 1,-1,1", "--length"},     {"mesh --periodic xq", "--periodic"},
               {"mesh --mesh cube", "--mesh"},           {"poisson --tol abc --cells 4,4,4", "--tol"},
               {"poisson --backend gpu", "--backend"},       {"bench kernels --meshes hex,cube", "--meshes"},
               {"mesh --mesh prism --periodic x", "--periodic"}, {"bench kernels --matrices laplacian,mass", "--matrices"},
               {"bench kernels --matrices convection --pcg", "--pcg"}};
  for (const auto& c : cases) {
    const Run r = run_miniapp(c.args);
    INFO(c.args << "\n" << r.output);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Contains(c.option));
  }
}

TEST_CASE("miniapp mesh prints the report of a hex box", "[cli]") {
  const Run r = run_miniapp("mesh --mesh hex --cells 4,4,4");
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Contains("64"));  // 4 × 4 × 4 cells
  CHECK_THAT(r.output, Contains("hex"));
}

TEST_CASE("miniapp poisson solves the problem on a small mesh with every preconditioner", "[cli]") {
  const Run r = run_miniapp("poisson --backend cpu --cells 8,8,8");
  CHECK(r.status == 0);
  for (const char* name : {"none", "jacobi", "aip1", "aip2", "aip3"}) CHECK_THAT(r.output, Contains(name));
  CHECK_THAT(r.output, !Contains("NOT converged"));
  CHECK_THAT(r.output, Contains("512 rows"));
  const Run bad = run_miniapp("poisson --preconditioner ilu --cells 4,4,4");
  CHECK(bad.status != 0);
  CHECK_THAT(bad.output, Contains("--preconditioner"));
}

// The iteration count of a preconditioner's line of the poisson report ("name  setup  iterations ...").
int reported_iterations(const std::string& output, const std::string& name) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(name + " ", 0) == 0) {
      std::istringstream fields(line);
      std::string label;
      double setup = 0;
      int iterations = -1;
      fields >> label >> setup >> iterations;
      return iterations;
    }
  return -1;
}

TEST_CASE("miniapp poisson: no preconditioner is plain CG, equal to Jacobi where the diagonal is constant", "[cli]") {
  // On a uniform periodic box every row has the same diagonal, so Jacobi only rescales r and CG takes
  // the same steps; with walls the diagonals differ and so do the iteration counts.
  const Run periodic = run_miniapp("poisson --backend cpu --cells 12,12,12 --preconditioner none,jacobi");
  CHECK(periodic.status == 0);
  CHECK(reported_iterations(periodic.output, "none") > 0);
  CHECK(reported_iterations(periodic.output, "none") == reported_iterations(periodic.output, "jacobi"));
  const Run walls = run_miniapp("poisson --backend cpu --cells 12,12,12 --periodic none --preconditioner none,jacobi");
  CHECK(walls.status == 0);
  CHECK(reported_iterations(walls.output, "none") > 0);
  CHECK(reported_iterations(walls.output, "none") != reported_iterations(walls.output, "jacobi"));
}

TEST_CASE("miniapp poisson reports non-convergence at the iteration cap", "[cli]") {
  const Run r = run_miniapp("poisson --backend cpu --cells 8,8,8 --max-iter 2 --preconditioner jacobi");
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Contains("did not converge"));
}

TEST_CASE("miniapp mesh reads Gmsh files: 3D with periodic links, 2D extruded", "[cli]") {
  const std::string meshes = std::string(MINIAPP_SOURCE_DIR) + "/cases/meshes/";
  const Run box = run_miniapp("mesh --mesh '" + meshes + "periodic_box.msh' --periodic xyz --length 1,2,0.5");
  CHECK(box.status == 0);
  CHECK_THAT(box.output, Contains("xmin -> xmax"));
  // The same file with the wrong period: the patches do not match, and the error says which.
  const Run wrong = run_miniapp("mesh --mesh '" + meshes + "periodic_box.msh' --periodic y");
  CHECK(wrong.status != 0);
  CHECK_THAT(wrong.output, Contains("ymin"));
  const Run slab = run_miniapp("mesh --mesh '" + meshes + "cylinder_2d.msh' --layers 2 --periodic z");
  CHECK(slab.status == 0);
  CHECK_THAT(slab.output, Contains("prism"));
}

TEST_CASE("miniapp mesh takes the file as a positional argument as --mesh does", "[cli]") {
  const std::string file = std::string(MINIAPP_SOURCE_DIR) + "/cases/meshes/tet_box.msh";
  const Run positional = run_miniapp("mesh '" + file + "'");
  const Run option = run_miniapp("mesh --mesh '" + file + "'");
  INFO(positional.output);
  CHECK(positional.status == 0);
  CHECK_THAT(positional.output, Contains("tet_box.msh") && Contains("closure"));
  CHECK(positional.output == option.output);
  // A 2D file: extruded with end walls, or glued at its ends with --periodic z.
  const std::string slab = "mesh '" + std::string(MINIAPP_SOURCE_DIR) + "/cases/meshes/cylinder_2d.msh' --layers 2";
  const Run walls = run_miniapp(slab), periodic = run_miniapp(slab + " --periodic z");
  CHECK(walls.status == 0);
  CHECK(periodic.status == 0);
  CHECK_THAT(walls.output, Contains("(0 periodic)") && !Contains("periodic link"));
  CHECK_THAT(periodic.output, Contains("periodic link"));
}

TEST_CASE("miniapp run --selftest prints each operator check with its error and exits", "[cli]") {
  const Run r = run_miniapp("run cavity --selftest --set mesh.cells=[6,5,1]");
  INFO(r.output);
  CHECK(r.status == 0);
  for (const char* check : {"mesh closure", "Omega G = -(M Gamma)^T", "L = M Gs symmetric", "C(u_s) skew-symmetric"})
    CHECK_THAT(r.output, Contains(check));
  CHECK_THAT(r.output, Contains("tolerance") && Contains("selftest  passed"));
  CHECK_THAT(r.output, !Contains("summary"));  // it did not run
}

TEST_CASE("a missing .msh file is named in the error", "[cli]") {
  const Run r = run_miniapp("mesh --mesh /nonexistent/dir/case.msh");
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Contains("/nonexistent/dir/case.msh"));
}

namespace {

// A fresh, empty folder for one test's files.
std::filesystem::path scratch_folder(const std::string& name) {
  const auto folder = std::filesystem::temp_directory_path() / ("miniapp_cli_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs miniapp with `arguments` and `--json FILE`, FILE in a fresh folder for the test `name`.
std::pair<Run, std::filesystem::path> run_with_json(const std::string& name, const std::string& arguments) {
  const auto json = scratch_folder(name) / (name + ".json");
  return {run_miniapp(arguments + " --json '" + json.string() + "'"), json};
}

}  // namespace

TEST_CASE("miniapp bench step times a few steps and reports the bandwidth-bound fraction", "[cli]") {
  const auto [r, json] =
      run_with_json("bench_step", "bench step cavity --steps 2 --backend cpu --set mesh.cells=[8,8,1]");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Contains("fraction bound/measured"));
  CHECK_THAT(r.output, Contains("SpMV+AXPY+DOT, profiled") && Contains("device timeline"));
  CHECK_THAT(r.output, Contains("bytes per cell"));
  CHECK_THAT(read_text(json), Contains("\"bound_fraction\"") && Contains("\"cells\": 64") &&
                                   Contains("\"useful_bound_fraction\"") && Contains("\"host_reads_per_step\""));
  // The profiled steps re-ran the timed ones from their start and ended bit for bit where they did.
  CHECK_THAT(read_text(json), Contains("\"replays_identical\": true"));
  CHECK_THAT(r.output, Contains("fields bitwise equal at the end"));
  CHECK_THAT(r.output, Contains("queued past the stop") && Contains("host reads per step"));
  const Run bad = run_miniapp("bench step cavity --steps 0 --backend cpu");
  CHECK(bad.status != 0);
  CHECK_THAT(bad.output, Contains("--steps"));
  std::filesystem::remove_all(json.parent_path());
}

TEST_CASE("miniapp poisson --export-matrix writes CSR arrays and b of the sizes of the matrix", "[cli]") {
  const auto folder = scratch_folder("export");
  const std::string prefix = (folder / "p").string();
  const Run r = run_miniapp("poisson --backend cpu --cells 8,8,8 --preconditioner jacobi --export-matrix '" + prefix +
                            "' --json '" + prefix + "_ours.json'");
  INFO(r.output);
  REQUIRE(r.status == 0);
  // A periodic 8×8×8 hex box: 512 cells, each with itself and 6 neighbours in its row.
  const std::uintmax_t rows = 512, nnz = 7 * rows;
  CHECK(std::filesystem::file_size(prefix + ".row_ptr.i32") == 4 * (rows + 1));
  CHECK(std::filesystem::file_size(prefix + ".col.i32") == 4 * nnz);
  CHECK(std::filesystem::file_size(prefix + ".val.f64") == 8 * nnz);
  CHECK(std::filesystem::file_size(prefix + ".rhs.f64") == 8 * rows);
  std::ifstream row_ptr(prefix + ".row_ptr.i32", std::ios::binary);
  row_ptr.seekg(4 * rows);
  std::int32_t last = 0;
  row_ptr.read(reinterpret_cast<char*>(&last), sizeof last);
  CHECK(last == static_cast<std::int32_t>(nnz));
  CHECK_THAT(read_text(prefix + ".json"), Contains("\"rows\": 512") && Contains("\"nnz\": 3584"));
  CHECK_THAT(read_text(prefix + "_ours.json"), Contains("\"preconditioner\": \"jacobi\"") && Contains("\"iterations\""));
  std::filesystem::remove_all(folder);
}

TEST_CASE("miniapp poisson --level-kernels times each kernel call of AMG's two finest levels", "[cli]") {
  // Slice height 1: no padding and a slice per row, so an SpMV's counted bytes follow from its
  // matrix's rows and non-zeros alone.
  const auto [r, json] = run_with_json("level_kernels",
                                       "poisson --backend cpu --mesh hex --cells 20,20,20 --periodic none "
                                       "--preconditioner amg --level-kernels --slice-height 1");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Contains("AMG level kernels") && Contains("\nlevel 0: 8000 rows") &&
                           Contains("\nlevel 1: ") && Contains("% copy") && Contains("all calls of the level"));
  CHECK_THAT(r.output, !Contains("\nlevel 2: "));
  const auto document = nlohmann::json::parse(read_text(json));
  CHECK(document.at("slice_height") == 1);
  CHECK(document.at("copy_bandwidth_gb_per_s").get<double>() > 0);
  const auto& levels = document.at("amg_levels");
  REQUIRE(levels.size() >= 3);  // level 1 above the coarsest: its whole part of the cycle
  const auto& kernels = document.at("level_kernels");
  // Degree 1: smoothing from zero, the residual with A, R, the correction with P, one Jacobi pass.
  const std::vector<std::string> cycle = {"pointwise", "spmv_axpby", "spmv", "spmv_axpby", "jacobi_step"};
  for (int l = 0; l < 2; ++l) {
    INFO("level " << l);
    const double rows = levels.at(l).at("rows"), nnz = levels.at(l).at("nnz");
    const double coarse_rows = levels.at(l + 1).at("rows");
    std::vector<std::string> names;
    double r_entries = -1, p_entries = -2;  // the stored entries of R and P, from their bytes
    for (const auto& k : kernels) {
      if (k.at("level") != l) continue;
      INFO(k.dump());
      names.push_back(k.at("kernel").get<std::string>());
      const double bytes = k.at("bytes"), seconds = k.at("seconds"), percent = k.at("percent_of_copy");
      CHECK(seconds > 0);
      CHECK((std::isfinite(percent) && percent > 0));
      CHECK(k.at("gb_per_s").get<double>() == Approx(bytes / seconds / 1e9));
      const std::string operation = k.at("operation");
      // Double values (poisson's default): 12 bytes per stored entry. The fused passes read b (the
      // residual), x (the correction), or b and ω D⁻¹ (the Jacobi step) besides x and y.
      if (k.at("kernel") == "pointwise") {
        CHECK(k.at("rows") == rows);
        CHECK(bytes == 24 * rows);  // two vectors read, one written
      } else if (operation == "r = b - A x") {
        CHECK(k.at("rows") == rows);
        CHECK(bytes == 12 * nnz + 4 * (rows + 1) + 8 * (rows + rows) + 8 * rows);
      } else if (k.at("kernel") == "jacobi_step") {
        CHECK(k.at("rows") == rows);
        CHECK(bytes == 12 * nnz + 4 * (rows + 1) + 8 * (rows + rows) + 16 * rows);
      } else if (operation == "b_c = R r") {
        CHECK(k.at("rows") == coarse_rows);
        r_entries = (bytes - 4 * (coarse_rows + 1) - 8 * (rows + coarse_rows)) / 12;
      } else {
        CHECK(operation == "e = x + P x_c");
        CHECK(k.at("rows") == rows);
        p_entries = (bytes - 4 * (rows + 1) - 8 * (rows + coarse_rows) - 8 * rows) / 12;
      }
    }
    CHECK(names == cycle);
    CHECK(r_entries == p_entries);  // R = Pᵀ
    CHECK(p_entries >= rows);       // every row of P has an entry
    CHECK(p_entries == std::floor(p_entries));
  }
  for (const auto& k : kernels) CHECK(k.at("level").get<int>() < 2);
  const Run without_amg = run_miniapp("poisson --backend cpu --cells 4,4,4 --preconditioner jacobi --level-kernels");
  CHECK(without_amg.status != 0);
  CHECK_THAT(without_amg.output, Contains("--level-kernels"));
  std::filesystem::remove_all(json.parent_path());
}

TEST_CASE("miniapp bench kernels times SpMV on the Laplacian and the convection operator", "[cli]") {
  const auto [r, json] =
      run_with_json("bench_kernels", "bench kernels --backend cpu --mesh-sizes 500 --meshes prism --repeat 2");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Contains("coef_update") && Contains("spmv_sell_x3") && Contains("convection"));
  const auto results = nlohmann::json::parse(read_text(json)).at("results");
  const auto record = [&](const std::string& kernel, const std::string& matrix) {
    for (const auto& entry : results)
      if (entry.at("kernel") == kernel && entry.at("matrix") == matrix) return entry;
    FAIL("no record of " << kernel << " on the " << matrix);
    return nlohmann::json();
  };
  for (const auto& entry : results) {
    CHECK(entry.at("seconds").get<double>() > 0);
    CHECK(entry.at("bytes").get<double>() > 0);
  }
  const auto laplacian = record("spmv_sell", "laplacian"), convection = record("spmv_sell", "convection");
  CHECK(convection.at("rows") == laplacian.at("rows"));
  // On a box with walls C(u_s) couples each cell with its face neighbours, as L does.
  CHECK(convection.at("nnz") == laplacian.at("nnz"));
  // E_C has one row per stored entry of C's sELL values, which it refreshes.
  CHECK(record("coef_update", "convection").at("rows") == convection.at("stored_entries"));
  // Three vectors in one pass: the matrix once, two more vectors read and written (8 bytes each).
  CHECK(record("spmv_sell_x3", "convection").at("bytes").get<double>() ==
        convection.at("bytes").get<double>() + 2 * 16 * convection.at("rows").get<double>());
  CHECK(record("axpy", "").at("rows") == laplacian.at("rows"));
  std::filesystem::remove_all(json.parent_path());
}

TEST_CASE("bad observer input stops miniapp run before the first step with one message", "[cli]") {
  const std::string run = "run cavity --quiet --set mesh.cells=[4,4,1] --set output.fields=[] "
                          "--set output.directory=\"/tmp/miniapp_cli_observers\" ";
  const std::pair<std::string, std::string> cases[] = {
      {"--set probes.far.position=[3,0.5,0.01]", "[3, 0.5, 0.01] is outside the mesh"},
      {"--set forces.cylinder.reference_area=1", "has no patch \"cylinder\""},
      {"--set forces.ymax.reference_area=1 --set forces.ymax.reference_velocity=0", "must be > 0 (got 0)"},
      {"--set statistics.start_time=30", "not before run.end_time"},
      {"--set statistics.start_time=0 --set statistics.profile_axis=y", "not periodic in x"},
  };
  for (const auto& [args, message] : cases) {
    const Run r = run_miniapp(run + args);
    INFO(args << "\n" << r.output);
    CHECK(r.status != 0);
    CHECK_THAT(r.output, Contains(message));
    CHECK_THAT(r.output, !Contains("step "));  // no step was taken
  }
}

TEST_CASE("a folder given as the case file is named as such", "[cli]") {
  const auto folder = scratch_folder("folder_case") / "mine.toml";
  std::filesystem::create_directories(folder);
  const Run r = run_miniapp("run '" + folder.string() + "'");
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Contains(folder.string() + ": is a directory, not a case file"));
}

TEST_CASE("an output folder that cannot be made is named before any step or measurement", "[cli]") {
  const auto file = scratch_folder("output_blocked") / "a_file";
  std::ofstream(file) << "in the way\n";
  const std::string folder = (file / "out").string();
  const Run run = run_miniapp("run cavity --set mesh.cells=[4,4,1] --set output.directory='" + folder + "'");
  INFO(run.output);
  CHECK(run.status == 1);
  CHECK_THAT(run.output, Contains(folder + ": cannot create this folder: Not a directory"));
  CHECK_THAT(run.output, !Contains("step "));
  const Run predict = run_miniapp("predict cavity --set mesh.cells=[4,4,1] --no-plots --output '" + folder + "'");
  INFO(predict.output);
  CHECK(predict.status == 1);
  CHECK_THAT(predict.output, Contains(folder + ": cannot create this folder: Not a directory"));
  CHECK_THAT(predict.output, !Contains("counting"));
}

TEST_CASE("a generated mesh that cannot fit in host memory is refused before it is made", "[cli]") {
  // 1.6e9 hexahedra (within the 32-bit index range): far beyond any host this suite runs on.
  const Run r = run_miniapp("run cavity --set mesh.cells=[40000,40000,1] --set output.fields=[]");
  CHECK(r.status != 0);
  CHECK_THAT(r.output, Contains("mesh.cells makes 1.6e+09 cells") && Contains("GB of host memory") &&
                           Contains("GB available"));
}

TEST_CASE("a run out of host memory while building says how many bytes it asked for", "[cli]") {
  // The mesh passes the up-front check (the host has the memory); the address space the shell allows
  // does not, so an allocation of the set-up fails part way (10⁶ cells: the mesh alone takes about
  // two thirds of that space, the operators more than the rest).
  const std::string limit = "ulimit -v 1000000; ";
  // A build linked with the CUDA libraries cannot even map them in that address space.
  if (const Run start = run_miniapp("list", limit); start.status != 0) {
    WARN("not checked: miniapp does not start within `" + limit + "`: " + start.output);
    return;
  }
  const auto folder = scratch_folder("out_of_memory");
  const Run r = run_miniapp("run cavity-3d --set mesh.cells=[100,100,100] --set run.max_steps=1 --set output.fields=[] "
                            "--set output.directory='\"" + folder.string() + "\"'",
                            limit);
  std::filesystem::remove_all(folder);
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Contains("error: out of host memory") && Contains(" bytes") && Contains("GB available"));
  CHECK_THAT(r.output, !Contains("an allocation failed"));  // the size is known
}

TEST_CASE("SIGTERM finishes the step, writes a checkpoint and exits non-zero, the restart goes on", "[cli]") {
  const auto folder = scratch_folder("sigterm");
  const std::string args = "run cavity --quiet --set mesh.cells=[16,16,1] --set run.max_steps=1000000 --set run.end_time=1e9 --set output.fields=[] "
                           "--set output.directory='\"" + folder.string() + "\"'";
  // The shell starts the run, gives it time to step, and sends the signal.
  const Run r = run_miniapp(args + " & pid=$!; sleep 3; kill -TERM $pid; wait $pid; echo exit=$?");
  CHECK_THAT(r.output, Contains("stopped   by SIGTERM at step ") && Contains("exit=143"));
  const std::size_t at = r.output.find("at step ") + 8;
  const long step = std::stol(r.output.substr(at));
  CHECK(std::filesystem::exists(folder / ("checkpoint_" + std::to_string(step) + ".complete")));
  const Run again = run_miniapp("run cavity --quiet --set mesh.cells=[16,16,1] --set run.end_time=1e9 --set run.max_steps=" +
                                std::to_string(step + 3) + " --set output.fields=[] --set output.directory='\"" +
                                folder.string() + "\"' --restart '" + folder.string() + "'");
  CHECK(again.status == 0);
  CHECK_THAT(again.output, Contains("at step " + std::to_string(step)) && Contains("3 steps"));
}

TEST_CASE("progress lines reach a pipe or file at once: a run killed early leaves them", "[cli]") {
  const auto folder = scratch_folder("line_buffered");
  // SIGKILL flushes nothing: only lines already written survive. No progress line is due (each of
  // those flushes), so the set-up lines must have gone out as they were printed. The run is killed
  // once its time loop has written diagnostics (its set-up done, however slow the machine), or after
  // a minute.
  const std::string diagnostics = (folder / "diagnostics.csv").string();
  const Run r = run_miniapp("run cavity --set mesh.cells=[16,16,1] --set run.max_steps=1000000 --set run.end_time=1e9 --set run.progress_interval=1e6 "
                            "--set output.fields=[] --set output.directory='\"" + folder.string() +
                            "\"' & pid=$!; for i in $(seq 600); do [ -s '" + diagnostics +
                            "' ] && break; sleep 0.1; done; kill -KILL $pid; wait $pid");
  CHECK_THAT(r.output, Contains("backend   ") && Contains("output    "));
}
