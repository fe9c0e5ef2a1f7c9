// CUDA Graphs: KernelGraph's record/replay contract on the GPU, and PCG with its batches replayed as
// graphs against plain launches: the same kernels with the same arguments, so x, the residual, the
// iteration count and the kernel counters must be bitwise equal, with Jacobi (fused) and AIP-1.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>

#include "operators/backend/cuda/device.hpp"
#include "operators/backend/kernel_graph.hpp"
#include "operators/kernels/cg_kernels.hpp"
#include "operators/kernels/dot.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "solvers/aip.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/pcg.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

TEST_CASE("KernelGraph runs nothing when recording and the recorded work at each replay", "[cuda][graph]") {
  const Executor gpu = Executor::cuda();
  const index_t n = test::large_n;
  const std::vector<double> xh = test::random_vector(n, 1), yh = test::random_vector(n, 2);
  const Vector x = Vector::from_host(gpu, xh);
  Vector y = Vector::from_host(gpu, yh);
  KernelGraph graph(gpu);
  gpu.counters().reset();
  REQUIRE(graph.record([&] { axpby(gpu, 0.5, x, 1.0, y); }));
  CHECK(y.to_host() == yh);                        // recording ran nothing
  CHECK(gpu.counters().total().calls == 0);         // and counted nothing
  graph.replay();
  graph.replay();
  std::vector<double> want = yh;
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = 0.5 * xh[i] + (0.5 * xh[i] + want[i]);
  CHECK(test::relative_difference(y.to_host(), want) <= test::tolerance);
  CHECK(gpu.counters().tally(KernelKind::axpy).calls == 2);
}

TEST_CASE("KernelGraph: a recording is reusable only under the tracing state it was made in", "[cuda][graph]") {
  const Executor gpu = Executor::cuda();
  Vector y = Vector::from_host(gpu, test::random_vector(1000, 4));
  KernelGraph graph(gpu);
  const auto work = [&] { fill(gpu, 1.0, y); };
  CHECK_FALSE(graph.reusable());
  REQUIRE(graph.record(work));
  CHECK(graph.reusable());
  gpu.set_tracing(true);
  CHECK_FALSE(graph.reusable());  // instantiated before the trace: CUPTI would miss its loop's runs
  REQUIRE(graph.record(work));
  CHECK(graph.reusable());
  gpu.set_tracing(false);
  CHECK_FALSE(graph.reusable());
}

TEST_CASE("KernelGraph refuses work it cannot record and leaves the stream usable", "[cuda][graph]") {
  const Executor gpu = Executor::cuda();
  const Vector x = Vector::from_host(gpu, test::random_vector(1000, 3));
  KernelGraph graph(gpu);
  gpu.counters().reset();
  CHECK_FALSE(graph.record([&] { dot(gpu, x, x); }));  // waits for the host: cannot be recorded
  CHECK(gpu.counters().total().calls == 0);
  CHECK_THROWS_AS(graph.replay(), Error);
  CHECK(dot(gpu, x, x) > 0);  // the stream works as before
  gpu.set_profiling(true);
  CHECK_FALSE(graph.record([] {}));  // profiling synchronises after each kernel
  gpu.set_profiling(false);
}

// −L of a zero-flux box: singular, constants as null space, as the pressure system.
CsrMatrix pressure_like(index_t nx) {
  CsrMatrix a = test::laplacian_3d(nx, nx + 1, nx + 2);
  for (double& v : a.val) v = -v;
  return a;
}

struct SolveOutcome {
  std::vector<double> x;
  PcgResult result;
  KernelTally spmv, axpy, dot;
  std::uint64_t host_reads = 0;
};

SolveOutcome solve(const Executor& gpu, const CsrMatrix& a, const Preconditioner& m, bool graphs, int max_iterations) {
  const DeviceSell da(gpu, to_sell(a, 32));
  const Vector b = Vector::from_host(gpu, test::random_vector(a.rows, 7));
  Vector x = Vector::from_host(gpu, test::random_vector(a.rows, 8));
  Pcg pcg(gpu, a.rows);
  PcgOptions options;
  options.singular = true;
  options.tolerance = 1e-10;
  options.max_iterations = max_iterations;
  options.graphs = graphs;
  gpu.counters().reset();
  SolveOutcome out;
  out.result = pcg.solve(da, m, b, x, options);
  out.host_reads = gpu.counters().host_reads();  // before x is read back
  out.x = x.to_host();
  out.spmv = gpu.counters().tally(KernelKind::spmv);
  out.axpy = gpu.counters().tally(KernelKind::axpy);
  out.dot = gpu.counters().tally(KernelKind::dot);
  return out;
}

void check_same(const SolveOutcome& graphed, const SolveOutcome& plain) {
  CHECK(graphed.result.iterations == plain.result.iterations);
  CHECK(graphed.result.relative_residual == plain.result.relative_residual);
  CHECK(graphed.x == plain.x);
  for (const auto& [g, p] : {std::pair{graphed.spmv, plain.spmv}, {graphed.axpy, plain.axpy}, {graphed.dot, plain.dot}}) {
    CHECK(g.calls == p.calls);
    CHECK(g.bytes == p.bytes);
  }
}

TEST_CASE("PCG replayed as CUDA Graphs is bitwise PCG launched kernel by kernel", "[cuda][graph][pcg]") {
  const Executor gpu = Executor::cuda();
  const CsrMatrix a = pressure_like(GENERATE(as<index_t>{}, 12, 40));
  const int preconditioner = GENERATE(0, 1, 2);  // Jacobi, AIP in two passes, AIP as the product
  // 1000: converges inside a batch; 29: the cap falls inside a batch (a plain last batch).
  const int max_iterations = GENERATE(1000, 29);
  CAPTURE(a.rows, preconditioner, max_iterations);
  std::unique_ptr<Preconditioner> m;
  if (preconditioner == 0) m = std::make_unique<Jacobi>(gpu, a);
  else m = std::make_unique<Aip>(gpu, a, 1, 32, preconditioner == 1 ? AipForm::two_pass : AipForm::product);
  const SolveOutcome graphed = solve(gpu, a, *m, true, max_iterations);
  const SolveOutcome plain = solve(gpu, a, *m, false, max_iterations);
  check_same(graphed, plain);
  CHECK(graphed.result.replayed_batches >= 1);  // the graph path was taken, not a silent fallback
  CHECK(plain.result.replayed_batches == 0);
  if (max_iterations == 1000) CHECK(graphed.result.converged);
  // Plain: one read per batch of 8. A device loop: one read for all its batches, then one per batch
  // the host launches itself past the last whole body under the cap (29 = 3 × 8 + 5).
  CHECK(plain.host_reads == static_cast<std::uint64_t>((plain.result.queued_iterations + 7) / 8));
  if (cuda::Graph::loops_supported()) {
    CHECK(graphed.host_reads == (max_iterations == 1000 ? 1u : 2u));
    CHECK(graphed.result.queued_iterations == plain.result.queued_iterations);
  }
}

TEST_CASE("KernelGraph loops: the device repeats the body while its condition kernel says so", "[cuda][graph]") {
  if (!cuda::Graph::loops_supported()) {
    WARN("not run: device loops are off (no conditional graph nodes, or MINIAPP_NO_DEVICE_LOOPS=1)");
    return;
  }
  // A body of CG steps without preconditioner (cg_spmv_dot, cg_update) and the loop test: tolerance 0
  // never stops it, so the cap of 5 whole bodies of one step does. Against the same calls launched
  // 5 times: bitwise the same x, r and slots, and, once count_runs is told, the same counters.
  const Executor gpu = Executor::cuda();
  const CsrMatrix a = pressure_like(12);
  const DeviceSell da(gpu, to_sell(a, 32));
  struct Run {
    Vector p, q, x, r;
    CgScalars s;
  };
  const auto make = [&] {
    Run run{Vector::from_host(gpu, test::random_vector(a.rows, 1)), Vector(gpu, a.rows),
            Vector::from_host(gpu, test::random_vector(a.rows, 2)), Vector::from_host(gpu, test::random_vector(a.rows, 3)),
            CgScalars(gpu)};
    run.s.start(1.5, 1.0, 1.0, 0.0);
    cg_start(gpu, run.p, run.r, run.s, 0.0, 5);
    return run;
  };
  Run looped = make(), plain = make();
  KernelGraph loop(gpu);
  gpu.counters().reset();
  REQUIRE(loop.record_loop([&](LoopCondition condition) {
    cg_spmv_dot(gpu, da, looped.p, looped.q, looped.s);
    cg_update(gpu, looped.p, looped.q, looped.x, looped.r, looped.s);
    cg_loop_test(gpu, looped.s, 1, condition);
  }));
  CHECK(gpu.counters().total().calls == 0);
  REQUIRE(loop.replay());
  const CgProgress progress = looped.s.read();
  CHECK(progress.loop_runs == 5);
  CHECK(progress.iterations == 5);
  loop.count_runs(5);
  const KernelCounters by_loop = gpu.counters();
  gpu.counters().reset();
  for (int k = 0; k < 5; ++k) {
    cg_spmv_dot(gpu, da, plain.p, plain.q, plain.s);
    cg_update(gpu, plain.p, plain.q, plain.x, plain.r, plain.s);
    cg_loop_test(gpu, plain.s, 1, {});
  }
  CHECK(looped.x.to_host() == plain.x.to_host());
  CHECK(looped.r.to_host() == plain.r.to_host());
  CHECK(looped.s.values() == plain.s.values());
  for (const KernelKind kind : {KernelKind::spmv, KernelKind::axpy, KernelKind::pointwise}) {
    CHECK(by_loop.tally(kind).calls == gpu.counters().tally(kind).calls);
    CHECK(by_loop.tally(kind).bytes == gpu.counters().tally(kind).bytes);
  }
  // A second replay starts again from the default condition: one more run at least, and the cap
  // (already reached) stops it there.
  REQUIRE(loop.replay());
  CHECK(looped.s.read().loop_runs == 6);
  CHECK(looped.s.read().iterations == 6);
}

// Kept apart from the loop above so that each can run alone under the sanitizers.
TEST_CASE("KernelGraph refuses a loop body it cannot record and leaves the stream usable", "[cuda][graph]") {
  if (!cuda::Graph::loops_supported()) {
    WARN("not run: device loops are off (no conditional graph nodes, or MINIAPP_NO_DEVICE_LOOPS=1)");
    return;
  }
  const Executor gpu = Executor::cuda();
  const Vector p = Vector::from_host(gpu, test::random_vector(1000, 1));
  CgScalars s(gpu);
  s.start(1.5, 1.0, 1.0, 0.0);
  KernelGraph loop(gpu);
  // A body that waits for the host cannot be a loop: refused, and the stream works as before.
  CHECK_FALSE(loop.record_loop([&](LoopCondition condition) {
    dot(gpu, p, p);  // throws while the stream is capturing
    cg_loop_test(gpu, s, 1, condition);
  }));
  CHECK_THROWS_AS(loop.replay(), Error);
  CHECK(dot(gpu, p, p) > 0);
}

TEST_CASE("PCG re-records its graph when the preconditioner changes between solves", "[cuda][graph][pcg]") {
  // One Pcg, two preconditioners in turn: a graph kept from the first solve would replay the wrong
  // apply; the second solve must equal a fresh plain one.
  const Executor gpu = Executor::cuda();
  const CsrMatrix a = pressure_like(20);
  const DeviceSell da(gpu, to_sell(a, 32));
  const Vector b = Vector::from_host(gpu, test::random_vector(a.rows, 7));
  Pcg pcg(gpu, a.rows);
  PcgOptions options;
  options.singular = true;
  const Jacobi jacobi(gpu, a);
  const Aip aip(gpu, a, 1);
  Vector x(gpu, a.rows);
  fill(gpu, 0.0, x);
  pcg.solve(da, jacobi, b, x, options);
  fill(gpu, 0.0, x);
  const PcgResult second = pcg.solve(da, aip, b, x, options);
  Vector y(gpu, a.rows);
  fill(gpu, 0.0, y);
  options.graphs = false;
  const PcgResult plain = Pcg(gpu, a.rows).solve(da, aip, b, y, options);
  CHECK(second.replayed_batches >= 1);
  CHECK(second.iterations == plain.iterations);
  CHECK(x.to_host() == y.to_host());
}

TEST_CASE("PCG keeps its recording across solves only when told, and only for the same operands", "[cuda][graph][pcg]") {
  // Three solves on one Pcg with keep_recording: a new right-hand side (the kept batch replayed), then
  // another preconditioner (a different object: recorded again). Each must equal a fresh plain solve.
  const Executor gpu = Executor::cuda();
  const CsrMatrix a = pressure_like(20);
  const DeviceSell da(gpu, to_sell(a, 32));
  const Jacobi jacobi(gpu, a);
  const Aip aip(gpu, a, 1);
  Pcg kept(gpu, a.rows);
  PcgOptions options;
  options.singular = true;
  options.keep_recording = true;
  Vector x(gpu, a.rows), y(gpu, a.rows);
  int seed = 7;
  for (const Preconditioner* m : {static_cast<const Preconditioner*>(&jacobi), static_cast<const Preconditioner*>(&jacobi),
                                   static_cast<const Preconditioner*>(&aip)}) {
    const Vector b = Vector::from_host(gpu, test::random_vector(a.rows, seed++));
    fill(gpu, 0.0, x);
    fill(gpu, 0.0, y);
    const PcgResult result = kept.solve(da, *m, b, x, options);
    PcgOptions plain = options;
    plain.graphs = false;
    const PcgResult reference = Pcg(gpu, a.rows).solve(da, *m, b, y, plain);
    CHECK(result.replayed_batches >= 1);
    CHECK(result.iterations == reference.iterations);
    CHECK(x.to_host() == y.to_host());
  }
  // Profiling times every kernel alone: the kept recording is not replayed then.
  const Vector b = Vector::from_host(gpu, test::random_vector(a.rows, 11));
  fill(gpu, 0.0, x);
  gpu.set_profiling(true);
  gpu.counters().reset();
  const PcgResult profiled = kept.solve(da, aip, b, x, options);
  gpu.set_profiling(false);
  CHECK(profiled.replayed_batches == 0);
  CHECK(gpu.counters().tally(KernelKind::spmv).seconds > 0);
}

}  // namespace
}  // namespace miniapp
