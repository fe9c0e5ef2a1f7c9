// The up-front memory estimate against what set-up really allocates on the CPU executor (every
// array goes through Executor::allocate, counted by bytes_allocated): the same set of arrays and
// sizes, for each kind of boundary, with and without LES, for each preconditioner.
#include <catch2/catch.hpp>

#include <sstream>

#include "miniapp/run/host_memory_report.hpp"
#include "miniapp/run/memory_estimate.hpp"
#include "miniapp/run/observers.hpp"
#include "tests/run/run_test_support.hpp"

namespace miniapp::run {
namespace {

// Fixed-size scratch that the estimate leaves out on purpose (PCG's scalar block and partial sums).
constexpr std::size_t fixed_scratch_bound = 64 * 1024;
// The observers' samplers, left out of the estimate: per wall face a row of one entry (column and
// value, slice padding) and four results, well under this many bytes.
constexpr std::size_t sampler_bytes_per_face = 64;

// Allocated minus estimated bytes after setting up `name` with `overrides` on the CPU; checks the
// start-up line on the way.
std::size_t unaccounted_bytes(const std::string& name, std::vector<std::string> overrides) {
  overrides.push_back("numerics.backend=\"cpu\"");
  const test::ScratchDir dir("memory_estimate");
  overrides.push_back("output.directory=" + dir.path().string());
  const std::string path = cases::case_path(name);
  std::ostringstream log;
  const Simulation sim = set_up_simulation(cases::load_case(path, overrides), path, log);
  const MemoryEstimate& e = sim.memory_estimate;
  const std::size_t allocated = sim.exec.bytes_allocated();
  CAPTURE(name, overrides, e.operators, e.preconditioner, e.solver, e.fields, e.observers, allocated);
  CHECK_THAT(log.str(), Catch::Contains("device memory: " + std::to_string(e.total() / sim.cells()) + " bytes per cell"));
  // The observers come with the run loop: allocated here as run_simulation does.
  const Observers observers(sim, nullptr);
  const std::size_t with_observers = sim.exec.bytes_allocated();
  CHECK(with_observers - allocated >= e.observers);
  CHECK(with_observers - allocated - e.observers <=
        sampler_bytes_per_face * static_cast<std::size_t>(sim.mesh.boundary_face_count()) + 1024);
  // The timed choices' vectors come in the first steps, after the set-up.
  const std::size_t setup = e.total() - e.observers - e.first_steps;
  REQUIRE(setup <= allocated);
  return allocated - setup;
}

// The estimate is exact for everything that grows with the mesh: what it leaves out is the same
// fixed number of bytes whatever the mesh, boundaries, LES model, preconditioner or slice height.
TEST_CASE("the memory estimate matches the set-up's allocations up to fixed-size scratch", "[run][memory]") {
  const std::size_t reference = unaccounted_bytes("cavity", {"mesh.cells=[12,10,1]"});
  CHECK(reference <= fixed_scratch_bound);
  // Walls, a moving wall (with LES: a viscous source), a one-cell periodic direction.
  CHECK(unaccounted_bytes("cavity", {"mesh.cells=[17,9,1]", "physics.les=\"wale\""}) == reference);
  CHECK(unaccounted_bytes("cavity", {"mesh.cells=[12,10,1]", "statistics.start_time=0"}) == reference);
  CHECK(unaccounted_bytes("cavity", {"mesh.cells=[12,10,1]", "numerics.preconditioner=\"jacobi\""}) == reference);
  CHECK(unaccounted_bytes("cavity", {"mesh.cells=[12,10,1]", "numerics.preconditioner=\"aip2\"",
                                     "numerics.slice_height=5"}) == reference);
  // Inlet and outlet in 3D, and the channel: stretched, periodic in two directions, body force, LES.
  CHECK(unaccounted_bytes("cavity-3d", {"mesh.cells=[6,5,4]", "boundary.xmin.type=\"inlet\"",
                                        "boundary.xmin.velocity=[1,0,0]", "boundary.xmax.type=\"outlet\"",
                                        "physics.les=\"smagorinsky\""}) == reference);
  // AMG: a hierarchy of more than one level (cavity-3d has walls all round: its coarsest matrix is singular).
  CHECK(unaccounted_bytes("cavity-3d", {"mesh.cells=[12,10,8]", "numerics.preconditioner=\"amg\""}) == reference);
  CHECK(unaccounted_bytes("channel", {"mesh.cells=[6,8,4]", "numerics.poisson=\"pcg\""}) == reference);
  // The FFT path (Jacobi everywhere at set-up) beside PCG ("auto"), and alone (without PCG's
  // fixed-size scratch), on 4 and 2 layers.
  CHECK(unaccounted_bytes("channel", {"mesh.cells=[6,8,4]"}) == reference);
  CHECK(unaccounted_bytes("taylor-green-3d", {"mesh.cells=[8,6,4]", "numerics.fft_low_frequency_blocks=0"}) == reference);
  const std::size_t fft_alone = unaccounted_bytes("channel", {"mesh.cells=[6,8,4]", "numerics.poisson=\"fft\""});
  CHECK(fft_alone < reference);
  CHECK(unaccounted_bytes("taylor-green-3d", {"mesh.cells=[10,6,6]", "numerics.poisson=\"fft\""}) == fft_alone);
  CHECK(unaccounted_bytes("cavity", {"mesh.cells=[6,5,2]", "mesh.length=[1.0,1.0,0.125]",
                                     "numerics.poisson=\"fft\"", "physics.les=\"wale\""}) == fft_alone);
}

TEST_CASE("the memory estimate's first-step vectors are those the FFT path's timed choice holds", "[run][memory]") {
  Simulation sim = test::make_simulation("taylor-green-3d", {"mesh.cells=[8,8,8]", "numerics.poisson=\"fft\"",
                                                             "output.interval=0", "numerics.backend=\"cpu\""});
  const std::size_t first_steps = sim.memory_estimate.first_steps;
  CHECK(first_steps == 2 * sizeof(double) * static_cast<std::size_t>(sim.cells()));
  const std::size_t at_setup = sim.exec.bytes_allocated();
  sim.scheme->advance(*sim.fields);
  sim.scheme->advance(*sim.fields);  // step 2: the start and trial vectors live, and the blocks tried
  const std::size_t at_step_2 = sim.exec.bytes_allocated();
  CHECK(at_step_2 >= at_setup + first_steps);
  sim.scheme->advance(*sim.fields);  // step 3: chosen, the vectors freed
  CHECK(sim.exec.bytes_allocated() + first_steps <= at_step_2);
}

TEST_CASE("the cells that fit: free bytes over the estimate's bytes per cell", "[run][memory]") {
  MemoryEstimate e;
  e.operators = 1500;
  e.fields = 500;  // 2000 bytes for 1 cell
  CHECK(cells_that_fit(e, 1, 80'000'000'000) == 40'000'000);
  CHECK(cells_that_fit(e, 4, 80'000'000'000) == 160'000'000);  // 500 bytes per cell
  CHECK(cells_that_fit(e, 4, 499) == 0);
  CHECK(cells_that_fit(MemoryEstimate{}, 4, 1000) == 0);  // nothing to hold: no meaningful count
  // Bytes held by AMG's set-up count as free at the end (2000 bytes per cell on 10⁹ + 400 bytes)...
  e.preconditioner = 500;
  e.operators = 1000;
  e.fields = 500;
  e.held_by_setup = 400;
  CHECK(cells_that_fit(e, 1, 1'000'000'000) == 500'000);
  // ... unless the preconditioner and −L, laid out before the operators, need more beside them; the
  // operators' other arrays and the solver's vectors come once they are freed.
  e.operators = 100;
  e.before_preconditioner = 100;
  e.preconditioner = 1500;
  e.fields = 400;
  e.held_by_setup = 1000;
  CHECK(cells_that_fit(e, 1, 1'000'000'000) == 384'615);  // (10⁹ + 1000) / 2600
  e.before_preconditioner = 0;
  CHECK(cells_that_fit(e, 1, 1'000'000'000) == 400'000);  // (10⁹ + 1000) / 2500
  e.before_preconditioner = 100;
  // Bytes of the total already on the device at the check (the solver's −L, laid out there while AMG's
  // set-up read it) are the mesh's own: counted as free, at the end and meanwhile.
  CHECK(cells_that_fit(e, 1, 2'000) == 1);  // (2000 + 1000) / 2600
  e.uploaded = 2'200;
  CHECK(cells_that_fit(e, 1, 2'000) == 2);  // (2000 + 1000 + 2200) / 2600
}

TEST_CASE("Executor::bytes_allocated counts live allocations", "[run][memory]") {
  const Executor exec = Executor::cpu();
  CHECK(exec.bytes_allocated() == 0);
  {
    const Vector a(exec, 100);
    const Array<index_t> b(exec, 7);
    CHECK(exec.bytes_allocated() == 100 * sizeof(double) + 7 * sizeof(index_t));
  }
  CHECK(exec.bytes_allocated() == 0);
}

TEST_CASE("The host memory line leaves the log's number format as it found it", "[run][memory]") {
  // What the log prints after it (the forces summary's St, the summary's times) keeps its digits.
  std::ostringstream log;
  print_host_memory_peak(log, nullptr, 1000);
  CHECK_THAT(log.str(), Catch::Matchers::StartsWith("  host memory peak") && Catch::Matchers::Contains(" B per cell)"));
  log.str("");
  log << 0.164523;
  CHECK(log.str() == "0.164523");
}

}  // namespace
}  // namespace miniapp::run
