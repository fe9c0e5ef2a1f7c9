#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

#include "tests/run/run_test_support.hpp"

using namespace miniapp;
using namespace miniapp::run;

namespace {

struct RankCase {
  std::string name;
  std::vector<std::string> overrides;
};

// Small versions of shipped cases: walls and a lid (singular pressure), a periodic LES on tets, a
// channel with a body force, stretched cells and a perturbed start; then the channel and a tet cavity
// split by z-layers; a Gmsh file. Jacobi makes the preconditioner the same on every rank count (AIP
// becomes block-Jacobi across ranks: more iterations). The CPU backend on every rank: on a host with
// fewer GPUs than ranks the automatic choice would refuse to start.
RankCase rank_case(int which) {
  const std::vector<std::string> common = {"numerics.preconditioner=\"jacobi\"", "output.fields=[]",
                                           "numerics.poisson_tolerance=1e-10", "numerics.backend=\"cpu\""};
  RankCase c;
  if (which == 0) c = {"cavity", {"mesh.cells=[20,20,1]", "run.max_steps=12"}};
  if (which == 1)
    c = {"taylor-green-3d", {"mesh.generator=\"tet\"", "mesh.cells=[5,5,5]", "physics.les=\"wale\"",
                             "run.max_steps=8"}};
  if (which == 2) c = {"channel", {"mesh.cells=[8,8,6]", "run.max_steps=8", "numerics.poisson=\"pcg\""}};
  // Ranks that generate their own z-layers: a periodic z (halo layers generated across the periodic
  // end, where the perturbation differs) and a z with walls at both ends.
  if (which == 3)
    c = {"channel", {"mesh.cells=[8,8,8]", "run.max_steps=8", "numerics.poisson=\"pcg\"",
                     "mesh.decomposition=\"z-layers\""}};
  if (which == 4)
    c = {"cavity-3d", {"mesh.generator=\"tet\"", "mesh.cells=[4,4,6]", "run.max_steps=6",
                       "mesh.decomposition=\"z-layers\""}};
  // The FFT Poisson path on a P × 1 partition (whole periodic lines per rank): a periodic hex
  // Taylor-Green (no walls) and the channel (walls, stretched in y).
  if (which == 5) c = {"taylor-green-3d", {"mesh.cells=[6,6,8]", "run.max_steps=8", "numerics.poisson=\"fft\""}};
  if (which == 6) c = {"channel", {"mesh.cells=[8,8,6]", "run.max_steps=8", "numerics.poisson=\"fft\""}};
  // AMG, its hierarchy coupled across the P ranks: the same solution to the tolerance, in at most
  // 10 % more iterations than on one rank.
  if (which == 7) c = {"cavity-3d", {"mesh.generator=\"tet\"", "mesh.cells=[6,6,6]", "run.max_steps=6"}};
  // A Gmsh file (the coarse cylinder, extruded into prisms), read by rank 0 and shared out.
  if (which == 8) c = {"cylinder", {"mesh.file=\"meshes/cylinder_coarse.msh\"", "run.max_steps=4"}};
  c.overrides.insert(c.overrides.end(), common.begin(), common.end());
  if (which == 7) c.overrides.push_back("numerics.preconditioner=\"amg\"");
  return c;
}

Simulation set_up(const RankCase& c, const std::string& dir, const parallel::Communicator* comm) {
  auto overrides = c.overrides;
  overrides.push_back("output.directory=\"" + dir + "\"");
  const std::string path = cases::case_path(c.name);
  std::ostringstream log;
  return set_up_simulation(cases::load_case(path, overrides), path, log, comm);
}

// max |a| over a field on the host.
double largest(const std::vector<double>& a) {
  double m = 0;
  for (double v : a) m = std::max(m, std::abs(v));
  return m;
}

}  // namespace

// Every rank runs the case alone (the reference) and then together with the others; the owned cells'
// fields must match the reference at their global index, to the solver tolerance.
TEST_CASE("a case on P ranks reproduces the single-rank run", "[mpi][case]") {
  const int which = GENERATE(0, 1, 2, 3, 4, 5, 6, 7, 8);
  const RankCase c = rank_case(which);
  CAPTURE(c.name, which);
  const parallel::Communicator comm;
  const test::ScratchDir serial_dir("ranks_serial_" + std::to_string(comm.rank()));
  const test::ScratchDir shared_dir("ranks_" + std::to_string(comm.rank()));

  Simulation serial = set_up(c, serial_dir.path().string(), nullptr);
  const RunSummary serial_summary = test::run_quietly(serial);
  Simulation split = set_up(c, shared_dir.path().string(), &comm);
  const RunSummary split_summary = test::run_quietly(split);

  // Identical mesh totals, every cell owned once.
  CHECK(split.global_cells == serial.global_cells);
  CHECK(comm.allreduce(static_cast<long long>(split.global_cell_index.size()), parallel::ReduceOp::sum) ==
        serial.global_cells);
  // The same Poisson solver. The FFT path's set-up picks AIP or Jacobi per block of frequencies by
  // measured time, which on a near tie differs between rank counts: its pressure then differs at the
  // solver tolerance (so Δt a little more than with PCG), and its iterations are not compared.
  const bool fft = serial.config.numerics.poisson == cases::PoissonSolver::fft;
  CHECK(split.config.numerics.poisson == serial.config.numerics.poisson);
  CHECK(split.fields->step == serial.fields->step);
  CHECK(split.fields->time == Approx(serial.fields->time).epsilon(fft ? 1e-9 : 1e-12));
  // Poisson iterations within a few per step (AMG: within 10 %).
  INFO("Poisson iterations: " << split_summary.poisson_iterations << " on " << comm.size() << " ranks, "
                              << serial_summary.poisson_iterations << " on one");
  if (serial.config.numerics.preconditioner == cases::Preconditioner::amg)
    CHECK(split_summary.poisson_iterations <= 1.1 * serial_summary.poisson_iterations);
  else if (!fft)
    CHECK(std::abs(split_summary.poisson_iterations - serial_summary.poisson_iterations) <= 2 * serial_summary.steps);

  const auto compare = [&](const Vector& split_field, const Vector& serial_field, double relative) {
    const auto whole = to_mesh_order(serial, serial_field);
    const auto part = to_mesh_order(split, split_field);
    const double scale = largest(whole);
    REQUIRE(part.size() == split.global_cell_index.size());
    for (std::size_t i = 0; i < part.size(); ++i)
      REQUIRE(part[i] == Approx(whole[split.global_cell_index[i]]).margin(relative * scale));
  };
  for (int d = 0; d < 3; ++d) compare(split.fields->u[d], serial.fields->u[d], 1e-8);
  compare(split.fields->pressure, serial.fields->pressure, 1e-6);
  compare(split.fields->eddy_viscosity, serial.fields->eddy_viscosity, 1e-6);
}

// Each rank's device-memory estimate against what its set-up allocates (the CPU executor counts every
// array): every path (PCG with Jacobi or AMG, the FFT path) leaves the same fixed scratch out on every
// case and rank, since the halo exchanges (the cells', AMG's per level, the FFT path's of the frequency
// vectors), the pressure matrix's inner and interface rows and the FFT path's owned lines are counted.
TEST_CASE("the memory estimate on P ranks matches each rank's allocations", "[mpi][case][memory]") {
  const parallel::Communicator comm;
  if (comm.size() == 1) return;  // one rank's PCG keeps its own scratch (tests/run/memory_estimate_test)
  std::optional<long long> scratch;  // allocations less the estimate
  for (int which = 0; which <= 8; ++which) {
    const RankCase c = rank_case(which);
    CAPTURE(c.name, which, comm.rank());
    const test::ScratchDir dir("ranks_memory_" + std::to_string(comm.rank()));
    const Simulation sim = set_up(c, dir.path().string(), &comm);
    const MemoryEstimate& e = sim.memory_estimate;
    const auto estimate = static_cast<long long>(e.total() - e.observers - e.first_steps);
    const auto allocated = static_cast<long long>(sim.exec.bytes_allocated());
    CAPTURE(estimate, allocated);
    if (!scratch) scratch = allocated - estimate;
    CHECK(allocated - estimate == *scratch);
  }
  REQUIRE(scratch);
  CHECK(*scratch >= 0);
  CHECK(*scratch <= 64 * 1024);
}
