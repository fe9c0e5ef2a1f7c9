// numerics.poisson on several ranks: "auto" times the FFT path against PCG where every periodic line
// can stay on one rank, falls back to PCG (saying why) where it cannot, and an explicit "fft" there is refused on
// every rank with the reason.
#include <catch2/catch.hpp>

#include <algorithm>

#include "miniapp/run/pressure_path_choice.hpp"
#include "tests/run/run_test_support.hpp"

using namespace miniapp;
using namespace miniapp::run;

namespace {

// The taylor-green-3d case (periodic hexahedra) on every rank of comm, set up only, on the CPU backend
// (on a host with fewer GPUs than ranks the automatic choice would refuse); `log` gets its set-up lines.
Simulation set_up(const parallel::Communicator& comm, std::vector<std::string> overrides, std::ostringstream& log) {
  const test::ScratchDir dir("fft_choice_" + std::to_string(comm.rank()));
  overrides.insert(overrides.end(), {"run.max_steps=1", "output.fields=[]", "numerics.backend=\"cpu\"",
                                     "output.directory=\"" + dir.path().string() + "\""});
  const std::string path = cases::case_path("taylor-green-3d");
  return set_up_simulation(cases::load_case(path, overrides), path, log, &comm);
}

}  // namespace

TEST_CASE("numerics.poisson on several ranks: fft where lines stay whole, else pcg or a refusal", "[mpi][case][fft]") {
  const parallel::Communicator comm;
  std::ostringstream log;
  if (comm.size() == 1) return;  // one rank holds every line: the single-rank choice (tests/fft)

  SECTION("auto partitions the mesh by lines and keeps the path faster on the slowest rank") {
    Simulation sim = set_up(comm, {"mesh.cells=[6,6,8]"}, log);
    CHECK_THAT(log.str(), Catch::Contains("whole periodic lines on each of " + std::to_string(comm.size()) + " ranks"));
    REQUIRE(sim.pressure_path);
    for (int s = 0; s < 5; ++s) REQUIRE(sim.scheme->advance(*sim.fields).poisson.converged);
    REQUIRE(sim.pressure_path->chosen());
    // The FFT path's leading blocks, timed at steps 2 and 3, alike on every rank.
    const double blocks = sim.scheme->pressure_solver().timed_choices().at(1).second;
    CHECK(comm.allreduce(blocks, parallel::ReduceOp::max) == comm.allreduce(blocks, parallel::ReduceOp::min));
    // Both paths solved on every rank; each rank kept the same one, with the same (slowest rank's) times.
    const auto& paths = sim.pressure_path->paths();
    const double fft = paths[0].seconds, pcg = paths[1].seconds;
    CHECK(comm.allreduce(fft, parallel::ReduceOp::max) == comm.allreduce(fft, parallel::ReduceOp::min));
    CHECK(comm.allreduce(pcg, parallel::ReduceOp::max) == comm.allreduce(pcg, parallel::ReduceOp::min));
    take_pressure_path(sim);
    const double kept = sim.config.numerics.poisson == cases::PoissonSolver::fft ? 1 : 0;
    CHECK(comm.allreduce(kept, parallel::ReduceOp::max) == comm.allreduce(kept, parallel::ReduceOp::min));
    CHECK(sim.pressure_path->path().seconds == std::min(fft, pcg));
    REQUIRE(sim.scheme->advance(*sim.fields).poisson.converged);
  }
  SECTION("fewer periodic lines than ranks") {
    const Simulation sim = set_up(comm, {"mesh.cells=[1,1,8]"}, log);
    CHECK(sim.config.numerics.poisson == cases::PoissonSolver::pcg);
    CHECK_THAT(sim.config.numerics.poisson_choice,
               Catch::Contains(std::to_string(comm.size()) + " ranks for 1 periodic lines"));
    CHECK_THROWS_WITH(set_up(comm, {"mesh.cells=[1,1,8]", "numerics.poisson=\"fft\""}, log),
                      Catch::Contains(std::to_string(comm.size()) + " ranks for 1 lines"));
  }
  SECTION("z-layers split the lines") {
    const std::vector<std::string> layers = {"mesh.cells=[4,4,8]", "mesh.decomposition=\"z-layers\""};
    const Simulation sim = set_up(comm, layers, log);
    CHECK(sim.config.numerics.poisson == cases::PoissonSolver::pcg);
    CHECK_THAT(sim.config.numerics.poisson_choice, Catch::Contains("z-layers"));
    std::vector<std::string> explicit_fft = layers;
    explicit_fft.push_back("numerics.poisson=\"fft\"");
    CHECK_THROWS_WITH(set_up(comm, explicit_fft, log), Catch::Contains("splits the periodic lines"));
  }
}
