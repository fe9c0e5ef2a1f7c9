// The time step's sub-steps replayed from CUDA Graphs (miniapp/time/sub_step_graph.hpp) against the
// same steps launched kernel by kernel (profiling on: nothing is recorded), and the AXPY kernels with
// coefficients read from device memory, which those graphs rely on for Δt.
#include <catch2/catch.hpp>

#include <sstream>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/run/simulation.hpp"
#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/kernel_graph.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

TEST_CASE("CUDA axpby and waxpby read coefficients from device memory when the kernel runs", "[cuda][vector_ops]") {
  const Executor gpu = Executor::cuda();
  const index_t n = GENERATE(as<index_t>{}, test::large_n, 3, 1);
  // (a, b) as stored: general, and a zero b whose input holds NaN (its term must still vanish).
  const auto [a, b] = GENERATE(std::pair{0.75, -1.25}, std::pair{2.0, 0.0});
  CAPTURE(n, a, b);
  const std::vector<double> xh = test::random_vector(n, 31);
  const std::vector<double> yh = b == 0.0 ? test::nan_vector(n) : test::random_vector(n, 32);
  std::vector<double> want(static_cast<std::size_t>(n));
  cpu::waxpby(n, a, xh.data(), b, yh.data(), want.data());
  Vector coefficients = Vector::from_host(gpu, std::vector<double>{-7.0, -7.0});  // not yet a and b
  const Vector x = Vector::from_host(gpu, xh);
  Vector y = Vector::from_host(gpu, yh), w(gpu, n);
  KernelGraph graph(gpu);
  REQUIRE(graph.record([&] {
    waxpby(gpu, entry_of(coefficients, 0), x, entry_of(coefficients, 1), y, w);
    axpby(gpu, entry_of(coefficients, 0), x, entry_of(coefficients, 1), y);
  }));
  coefficients.copy_from_host(std::vector<double>{a, b});  // after the recording, before the replay
  graph.replay();
  CHECK(test::relative_difference(w.to_host(), want) <= test::tolerance);
  CHECK(test::relative_difference(y.to_host(), want) <= test::tolerance);
  CHECK_THROWS_WITH(entry_of(coefficients, 2), Catch::Contains("entry 2 of a vector of 2"));
}

// u, p and ν_t after `steps` steps of a small LES case on CUDA, with the sub-steps replayed from
// graphs (profiling off) or launched one by one (profiling on).
std::vector<double> run_fields(bool profiling, int steps) {
  const std::string path = cases::case_path("taylor-green-3d");
  const std::vector<std::string> overrides = {"mesh.cells=[12,12,12]", "physics.les=\"wale\"",
                                              "numerics.poisson=\"pcg\"", "numerics.backend=\"cuda\""};
  std::ostringstream log;
  run::Simulation sim = run::set_up_simulation(cases::load_case(path, overrides), path, log);
  sim.exec.set_profiling(profiling);
  for (int s = 0; s < steps; ++s) sim.scheme->advance(*sim.fields);
  std::vector<double> out;
  for (const Vector* v : {&sim.fields->u[0], &sim.fields->u[1], &sim.fields->u[2], &sim.fields->pressure,
                          &sim.fields->eddy_viscosity}) {
    const std::vector<double> h = v->to_host();
    out.insert(out.end(), h.begin(), h.end());
  }
  out.push_back(sim.fields->dt);
  return out;
}

TEST_CASE("Sub-steps replayed from graphs give the fields of plain launches, bitwise", "[cuda][graph]") {
  // Seven steps: Δt changes every step (CFL control) and uⁿ, uⁿ⁻¹ swap buffers, so both recordings
  // of each sub-step are replayed with new coefficients several times.
  CHECK(run_fields(false, 7) == run_fields(true, 7));
}

}  // namespace
}  // namespace miniapp
