// The up-front memory check on a CUDA device: the estimate against what set-up allocates there
// (slices of 32 rows: more padding than on the CPU), and the error when a mesh does not fit.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/run/memory_estimate.hpp"
#include "miniapp/run/observers.hpp"
#include "miniapp/run/simulation.hpp"

namespace miniapp {
namespace {

// Allocated minus estimated bytes of the case `name` (a cavity) set up on CUDA with `cells`; its set-up's
// log in `log_out` where given.
std::size_t unaccounted_bytes(const std::string& cells, const std::string& name = "cavity",
                              std::string* log_out = nullptr, const std::vector<std::string>& more = {}) {
  const std::string path = cases::case_path(name);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "miniapp_memory_check";
  std::vector<std::string> overrides = {"mesh.cells=" + cells, "physics.les=\"wale\"", "numerics.backend=\"cuda\"",
                                        "output.directory=" + dir.string(), "output.fields=[]"};
  overrides.insert(overrides.end(), more.begin(), more.end());
  std::ostringstream log;
  const run::Simulation sim = run::set_up_simulation(cases::load_case(path, overrides), path, log);
  const run::MemoryEstimate& e = sim.memory_estimate;
  const std::size_t allocated = sim.exec.bytes_allocated();
  CAPTURE(cells, e.total(), e.observers, allocated, log.str());
  CHECK_THAT(log.str(), Catch::Contains("device memory: " + std::to_string(e.total() / sim.cells()) + " bytes per cell"));
  // The observers come with the run loop: allocated here as run_simulation does (their few samplers aside).
  {
    const run::Observers observers(sim, nullptr);
    CHECK(sim.exec.bytes_allocated() - allocated >= e.observers);
  }
  std::filesystem::remove_all(dir);
  if (log_out) *log_out = log.str();
  REQUIRE(e.total() - e.observers <= allocated);
  return allocated - (e.total() - e.observers);
}

TEST_CASE("the memory estimate matches the allocations of a CUDA set-up", "[cuda][memory]") {
  // Exact up to fixed-size scratch: the same few KiB for both meshes.
  const std::size_t unaccounted = unaccounted_bytes("[40,30,1]");
  CHECK(unaccounted <= 64 * 1024);
  CHECK(unaccounted_bytes("[37,61,1]") == unaccounted);
}

TEST_CASE("the memory estimate stays exact where −L is uploaded before AMG's set-up", "[cuda][memory]") {
  // 32³ cells: AMG by default, its finest level set up on the device from the solver's −L, whose sELL
  // the operators' upload then takes; the allocations are the estimate's as without it.
  std::string log;
  const std::size_t unaccounted = unaccounted_bytes("[32,32,32]", "cavity-3d", &log);
  CHECK_THAT(log, Catch::Contains("pressure matrix (upload)") && Catch::Contains("of the mesh's already on it"));
  CHECK(unaccounted <= 64 * 1024);
}

TEST_CASE("the memory estimate counts the FFT path's cuFFT work area on a CUDA set-up", "[cuda][memory][fft]") {
  // The FFT path alone (no PCG scratch), its blocks Jacobi: the same fixed scratch on a mesh whose
  // transforms need no work area and on one whose 38 planes (2 · 19) need one.
  const std::vector<std::string> fft = {"numerics.poisson=\"fft\"", "numerics.fft_low_frequency_blocks=0"};
  const std::size_t unaccounted = unaccounted_bytes("[16,16,16]", "taylor-green-3d", nullptr, fft);
  CHECK(unaccounted <= 64 * 1024);
  CHECK(unaccounted_bytes("[40,24,38]", "taylor-green-3d", nullptr, fft) == unaccounted);
}

TEST_CASE("a mesh larger than the free device memory fails before the upload, with the sizes", "[cuda][memory]") {
  const Executor exec = Executor::cuda();
  run::MemoryEstimate e;
  e.operators = std::size_t{1} << 50;  // 1 PB
  std::ostringstream log;
  CHECK_THROWS_WITH(run::check_memory(e, 1000, exec, log),
                    Catch::Contains("mesh needs 1125899.91 GB of device memory") && Catch::Contains("GB free on cuda:0") &&
                        Catch::Contains("room for about 0 cells like these"));
  CHECK_THAT(log.str(), Catch::Contains("device memory: 1125899906842 bytes per cell"));
}

}  // namespace
}  // namespace miniapp
