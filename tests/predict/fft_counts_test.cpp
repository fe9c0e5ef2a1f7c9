// The FFT Poisson path's transforms reach the kernel counters (one copy-kind call per batched r2c or
// c2r, its real and complex arrays once), so that the cost model prices them.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/predict/step_profile.hpp"
#include "solvers/fft/periodic_fft.hpp"

namespace miniapp::predict {
namespace {

constexpr int copy_kind = static_cast<int>(KernelKind::copy);

TEST_CASE("Each batched transform adds one copy-kind call with its arrays' bytes", "[predict][fft]") {
  const Executor exec = Executor::cpu();
  const index_t lines = 3, n = 8;
  const auto fft = fft::make_periodic_fft(exec, lines, n, false);
  std::vector<double> host(lines * n);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = std::sin(0.7 * static_cast<double>(i));
  Vector real(exec, lines * n), modes(exec, lines * fft::mode_stride(Backend::cpu, n)), back(exec, lines * n);
  real.copy_from_host(host);
  const double bytes = 8.0 * lines * (n + n + 2);  // real array read, complex written (or the reverse)
  for (const bool forward : {true, false}) {
    INFO((forward ? "forward" : "backward"));
    const KernelCounters before = exec.counters();
    if (forward) fft->forward(real, modes);
    else fft->backward(modes, back);
    const KernelCounters added = exec.counters().since(before);
    CHECK(added.tally(KernelKind::copy).calls == 1);
    CHECK(added.tally(KernelKind::copy).bytes == bytes);
    CHECK(added.total().calls == 1);  // nothing else
  }
  const std::vector<double> result = back.to_host();
  for (std::size_t i = 0; i < host.size(); ++i) CHECK(result[i] == Approx(n * host[i]).margin(1e-12));  // unnormalised
}

TEST_CASE("A step on the FFT Poisson path counts its transforms in the solve phase", "[predict][fft]") {
  const std::string path = cases::case_path("taylor-green-3d");
  std::ostringstream log;
  // Jacobi on every frequency: no timed choice of blocks, whose outcome would follow the machine's load.
  const std::vector<std::string> overrides{"mesh.cells=[6,6,6]", "numerics.poisson=\"fft\"",
                                           "numerics.fft_low_frequency_blocks=0"};
  const auto config = cases::load_case(path, overrides);
  run::Simulation sim = run::set_up_simulation(config, path, log);
  const StepCounts counts = count_step(sim, 2);
  const PhaseLoad solve = counts.load(time::Phase::poisson_solve, counts.iterations);
  // At least the forward transform of b and the backward one of the solution, 36 lines of 6.
  const double transform_bytes = 8.0 * 36 * (6 + 6 + 2);
  CHECK(solve[copy_kind].calls >= 2);
  CHECK(solve[copy_kind].bytes >= 2 * transform_bytes);
  // The transforms are the set-up; the batched iterations carry every other call, none negative.
  CHECK(counts.iteration_unit == IterationUnit::batched_pcg);
  CHECK(counts.per_iteration[copy_kind].calls == 0);
  CHECK(counts.fixed[static_cast<int>(time::Phase::poisson_solve)][static_cast<int>(KernelKind::spmv)].calls == 0);
  for (int k = 0; k < kernel_kind_count; ++k) {
    CHECK(counts.per_iteration[k].calls >= 0);
    CHECK(counts.per_iteration[k].bytes >= 0);
    CHECK(counts.per_iteration[k].flops >= 0);
  }
  // At least one batched SpMV and its CG update per iteration, over every frequency system.
  CHECK(counts.per_iteration[static_cast<int>(KernelKind::spmv)].calls >= 1);
  CHECK(counts.per_iteration[static_cast<int>(KernelKind::spmv)].bytes > 0);
  // The systems leave the iterations one by one: the launched iterations come in several sizes, the
  // full range's the largest, their shares and mean size those of the counted iterations.
  REQUIRE(counts.iteration_spread.size() >= 2);
  double shares = 0, mean_ratio = 0, largest = 0, smallest = 1e300;
  for (const IterationShare& size : counts.iteration_spread) {
    CHECK(size.share > 0);
    shares += size.share, mean_ratio += size.share * size.bytes_ratio;
    largest = std::max(largest, size.bytes_ratio), smallest = std::min(smallest, size.bytes_ratio);
  }
  CHECK(shares == Approx(1).epsilon(1e-12));
  CHECK(mean_ratio == Approx(1).epsilon(1e-12));
  CHECK(largest > 1);
  CHECK(smallest < 1);
  // Each size names its systems and the plane's rows: the largest ran over every system.
  const auto widest = std::max_element(counts.iteration_spread.begin(), counts.iteration_spread.end(),
                                       [](const IterationShare& a, const IterationShare& b) { return a.systems < b.systems; });
  CHECK(widest->bytes_ratio == largest);
  for (const IterationShare& size : counts.iteration_spread) {
    CHECK(size.systems >= 1);
    CHECK(size.rows == 36);  // the 6 × 6 plane
  }
  // The CPU reads the systems' state after every iteration: none launched past the stop, and on one
  // rank those are the solve's only host reads (its start and mean removals stay on the executor).
  CHECK(counts.launched_per_iteration == 1);
  CHECK(counts.fixed_host_reads[static_cast<int>(time::Phase::poisson_solve)] == 0);
  const time::StepReport r = sim.scheme->advance(*sim.fields);
  CHECK(counts.fixed_host_reads[static_cast<int>(time::Phase::poisson_solve)] +
            counts.launched(r.poisson.iterations) * counts.iteration_host_reads ==
        Approx(static_cast<double>(r.kernels[static_cast<int>(time::Phase::poisson_solve)].host_reads())));
}

}  // namespace
}  // namespace miniapp::predict
