// The CUPTI timeline of `bench step` on the GPU: a PCG solve with AIP-1 replayed as a device loop,
// traced with Executor tracing on (the loop kept from before recorded again, so that CUPTI follows all
// its runs); every kernel it runs is in the name table, and the timeline holds SpMV, AXPY and DOT time
// within the solve's wall time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <optional>

#include "miniapp/bench/kernel_trace.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "solvers/aip.hpp"
#include "solvers/pcg.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

TEST_CASE("A traced PCG solve: every kernel classed, SpMV, AXPY and DOT time inside the wall time", "[cuda][trace]") {
  if (!bench::KernelTrace::available()) {
    WARN("not run: this build has no CUPTI");
    return;
  }
  const Executor gpu = Executor::cuda();
  CsrMatrix a = test::laplacian_3d(40, 41, 42);
  for (double& v : a.val) v = -v;
  const DeviceSell da(gpu, to_sell(a, 32));
  const Aip aip(gpu, a, 1);
  const Vector b = Vector::from_host(gpu, test::random_vector(a.rows, 7));
  Vector x(gpu, a.rows);
  fill(gpu, 0.0, x);
  Pcg pcg(gpu, a.rows);
  PcgOptions options;
  options.singular = true;
  options.keep_recording = true;
  pcg.solve(da, aip, b, x, options);  // its loop recorded before the trace: to be made again under it
  fill(gpu, 0.0, x);
  gpu.set_tracing(true);
  gpu.synchronize();
  std::optional<bench::KernelTrace> trace;
  try {
    trace.emplace();
  } catch (const Error& e) {  // CUPTI already taken: under compute-sanitizer or a profiler
    gpu.set_tracing(false);
    WARN("not run: " << e.what());
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const PcgResult result = pcg.solve(da, aip, b, x, options);
  gpu.synchronize();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bench::KernelTimeline t = trace->stop();
  gpu.set_tracing(false);
  REQUIRE(result.converged);
  CAPTURE(result.iterations);
  // Every run of the loop's body seen: one product of the direction per queued iteration.
  const auto product = std::find_if(t.by_name.begin(), t.by_name.end(),
                                    [](const auto& n) { return n.name == "direction_spmv_dot_kernel"; });
  REQUIRE(product != t.by_name.end());
  CHECK(product->count == result.queued_iterations);
  INFO("unclassified: " << (t.unclassified.empty() ? std::string("none") : t.unclassified.front()));
  CHECK(t.unclassified.empty());
  CHECK(t.records >= 3 * result.iterations);  // at least the iteration's three kernels each time
  double core = 0;
  for (const KernelKind kind : {KernelKind::spmv, KernelKind::axpy, KernelKind::dot}) {
    CHECK(t.seconds[static_cast<int>(kind)] > 0);
    core += t.seconds[static_cast<int>(kind)];
  }
  CHECK(t.busy_seconds <= wall);
  CHECK(core <= t.busy_seconds * (1 + 1e-9));
}

}  // namespace
}  // namespace miniapp
