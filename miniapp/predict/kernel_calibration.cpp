#include "miniapp/predict/kernel_calibration.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <functional>
#include <optional>
#include <ostream>

#include "miniapp/bench/timing.hpp"
#include "core/error.hpp"
#include "miniapp/predict/iteration_calibration.hpp"
#include "miniapp/predict/stencil_matrix.hpp"
#include "operators/backend/kernel_graph.hpp"
#include "operators/kernels/cg_kernels.hpp"
#include "miniapp/bench/random_vector.hpp"
#include "operators/kernels/dot.hpp"
#include "operators/kernels/flow_kernels.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::predict {
namespace {

constexpr int warmup_calls = 2;
constexpr int pipelined_calls = 20;  // calls per timed batch on asynchronous backends
// Calls per recorded graph: about one batch of Pcg (8 iterations of 6 to 7 kernels), so that the one
// graph launch per replay is spread as in the solve.
constexpr int graph_calls = 48;

Vector filled(const Executor& exec, index_t n, double value) {
  Vector v(exec, n);
  fill(exec, value, v);
  return v;
}

// Evicts the caches: one copy of a buffer larger than them (exec.copy: not counted by the counters).
class CacheFlush {
 public:
  CacheFlush(const Executor& exec, double bytes)
      : exec_(exec), a_(filled(exec, static_cast<index_t>(bytes / 16), 1.0)), b_(filled(exec, a_.size(), 0.0)) {}
  void operator()() const { (*this)(bytes()); }
  // A copy of the first `bytes` of it (at most bytes()).
  void operator()(double bytes) const {
    exec_.copy(const_cast<double*>(b_.data()), a_.data(), static_cast<std::size_t>(bytes / 16) * sizeof(double));
  }
  double bytes() const { return 16.0 * static_cast<double>(a_.size()); }

 private:
  Executor exec_;
  Vector a_, b_;
};

// CPU (synchronous: a call costs the same queued or alone): median wall time of `call`, with
// `before` run untimed ahead of every timed call (bench::median_of).
double median_seconds_after(int repeat, const std::function<void()>& before, const std::function<void()>& call) {
  return bench::median_of(warmup_calls, repeat, [&] {
    before();
    const auto start = std::chrono::steady_clock::now();
    call();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
}

// Per call of a batch of `calls` timed by `batch(with_call)`: the median over `repeat` batches of
// batch(true), less batch(false) (the flushes alone) when `flushed`; at least 10 ns (noise of the
// subtraction must not give a zero or negative cost).
double per_call_seconds(int repeat, int calls, bool flushed, const std::function<double(bool)>& batch) {
  const double seconds = bench::median_of(warmup_calls, repeat, [&] { return batch(true) - (flushed ? batch(false) : 0.0); });
  return std::max(seconds / calls, 1e-8);
}

// Asynchronous backends: seconds per call of `call` queued `pipelined_calls` times back to back on
// the stream between two events, as the time loop queues kernels (each launch overlaps the previous
// kernel; only the first launch of a batch is exposed). With `before` (a cache flush) ahead of each
// call, the same batch of `before` alone is timed next to it and subtracted.
double pipelined_seconds(const Executor& exec, int repeat, const std::function<void()>& before,
                         const std::function<void()>& call) {
  cuda::StreamTimer timer(exec.stream());
  return per_call_seconds(repeat, pipelined_calls, static_cast<bool>(before), [&](bool with_call) {
    timer.start();
    for (int i = 0; i < pipelined_calls; ++i) {
      if (before) before();
      if (with_call) call();
    }
    return timer.stop();
  });
}

// Asynchronous backends: seconds per call of `call` replayed from a KernelGraph that records it
// `graph_calls` times back to back (each after `before` when given), as Pcg replays its batches of
// iterations; one replay between two events, a graph of `before` alone subtracted likewise.
double replayed_seconds(const Executor& exec, int repeat, const std::function<void()>& before,
                        const std::function<void()>& call) {
  KernelGraph with_call(exec), flush_only(exec);
  const auto record = [&](KernelGraph& graph, bool calls) {
    if (!graph.record([&] {
          for (int i = 0; i < graph_calls; ++i) {
            if (before) before();
            if (calls) call();
          }
        }))
      throw Error("calibration: the graph curves: a kernel graph could not record the timed calls (needs the CUDA "
                  "backend with profiling off)");
  };
  record(with_call, true);
  if (before) record(flush_only, false);
  cuda::StreamTimer timer(exec.stream());
  return per_call_seconds(repeat, graph_calls, static_cast<bool>(before), [&](bool calls) {
    timer.start();
    (calls ? with_call : flush_only).replay();
    return timer.stop();
  });
}

using Levels = std::array<CostPoint, cache_level_count>;

// The points of one call: launched one by one, and (asynchronous backends) replayed from a graph.
struct Measured {
  Levels launched;
  std::optional<Levels> replayed;
};

struct Timer {
  const Executor& exec;
  const CacheFlush &warm_flush, &flush;
  int repeat;
  // One point of each cache level's curves: bytes per call from the counters, hot, warm and
  // streaming time (pipelined and replayed from a graph on asynchronous backends).
  Measured time(const std::function<void()>& call) const {
    const KernelCounters before = exec.counters();
    call();
    const double bytes = exec.counters().since(before).total().bytes;
    const int flushed_repeat = std::max(3, repeat / 2);
    const std::function<void()> warm = [this] { warm_flush(); }, streaming = [this] { flush(); };
    if (exec.backend() == Backend::cpu)
      return {{CostPoint{bytes, bench::median_call_seconds(exec, warmup_calls, repeat, call)},
               CostPoint{bytes, median_seconds_after(flushed_repeat, warm, call)},
               CostPoint{bytes, median_seconds_after(flushed_repeat, streaming, call)}},
              std::nullopt};
    return {{CostPoint{bytes, pipelined_seconds(exec, repeat, {}, call)},
             CostPoint{bytes, pipelined_seconds(exec, flushed_repeat, warm, call)},
             CostPoint{bytes, pipelined_seconds(exec, flushed_repeat, streaming, call)}},
            Levels{CostPoint{bytes, replayed_seconds(exec, repeat, {}, call)},
                   CostPoint{bytes, replayed_seconds(exec, flushed_repeat, warm, call)},
                   CostPoint{bytes, replayed_seconds(exec, flushed_repeat, streaming, call)}}};
  }
};

using PointTable = std::array<std::array<std::vector<CostPoint>, cache_level_count>, kernel_variant_count>;
struct Points {
  PointTable launched, replayed;
};

void add(Points& points, KernelVariant v, const Measured& m) {
  for (int l = 0; l < cache_level_count; ++l) {
    points.launched[static_cast<int>(v)][l].push_back(m.launched[l]);
    if (m.replayed) points.replayed[static_cast<int>(v)][l].push_back((*m.replayed)[l]);
  }
}

CurveTable curves_of(const PointTable& points) {
  CurveTable t;
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l) t[v][l] = CostCurve(points[v][l]);
  return t;
}

void time_vector_kernels(const Timer& timer, index_t n, Points& points) {
  const Executor& exec = timer.exec;
  const Vector x = filled(exec, n, 0.75);
  Vector y = filled(exec, n, 1.25), z = filled(exec, n, 0.5);
  // a = b = 0.5 keeps y bounded over any number of calls.
  add(points, KernelVariant::axpy, timer.time([&] { axpby(exec, 0.5, x, 0.5, y); }));
  // On asynchronous backends the DOT curve is the pipelined one: cg_rho, a DOT that keeps its result
  // on the device (the Poisson iterations' DOT class); the host round trip of dot() is sync_seconds.
  if (exec.backend() == Backend::cpu) {
    add(points, KernelVariant::dot, timer.time([&] { dot(exec, x, y); }));
  } else {
    CgScalars scalars(exec);
    scalars.start(1.0, 1.0, 1.0, 0.0);
    add(points, KernelVariant::dot, timer.time([&] { cg_rho(exec, x, y, scalars); }));
  }
  add(points, KernelVariant::pointwise, timer.time([&] { pointwise_multiply(exec, x, y, z); }));
  add(points, KernelVariant::copy, timer.time([&] { copy(exec, x, z); }));
}

void time_spmv(const Timer& timer, index_t rows, Points& points) {
  const Executor& exec = timer.exec;
  const CsrMatrix host = stencil_matrix(rows);
  const DeviceSell sell(exec, to_sell(host, exec.default_slice_height()));
  const DeviceCsr csr(exec, host);
  std::array<Vector, 3> x, y;
  for (int i = 0; i < 3; ++i) x[i] = filled(exec, host.rows, 1.0 + i), y[i] = filled(exec, host.rows, 0.0);
  add(points, KernelVariant::spmv_sell_1, timer.time([&] { spmv(exec, sell, x[0], y[0]); }));
  add(points, KernelVariant::spmv_csr_1, timer.time([&] { spmv(exec, csr, x[0], y[0]); }));
  const Vector* xs[] = {&x[0], &x[1], &x[2]};
  Vector* ys[] = {&y[0], &y[1], &y[2]};
  add(points, KernelVariant::spmv_sell_3, timer.time([&] { spmv_multi(exec, sell, xs, ys); }));
  const DeviceSell faces(exec, to_sell(face_matrix(rows), exec.default_slice_height()));
  Vector face_values = filled(exec, faces.rows(), 0.0);
  add(points, KernelVariant::spmv_interleaved_3, timer.time([&] { spmv_interleaved(exec, faces, xs, face_values); }));
}

// The host round trip of a call that returns a value (Calibration::sync_seconds): per call, a batch of
// synchronised dots minus one of cg_rho (the same DOT, result kept on the device), at n rows where
// the round trip dominates. 0 on the CPU, whose calls are synchronous either way.
double sync_seconds(const Executor& exec, index_t n, int repeat) {
  if (exec.backend() == Backend::cpu) return 0.0;
  const Vector x = filled(exec, n, 0.75), y = filled(exec, n, 1.25);
  CgScalars scalars(exec);
  scalars.start(1.0, 1.0, 1.0, 0.0);
  const double synchronised = pipelined_seconds(exec, repeat, {}, [&] { dot(exec, x, y); });
  const double pipelined = pipelined_seconds(exec, repeat, {}, [&] { cg_rho(exec, x, y, scalars); });
  return std::max(synchronised - pipelined, 0.0);
}

// Calibration::cache_retention: an AXPY on 1.5 MB of operands (they fit any last-level cache), timed
// after a copy of F bytes for F = the warm footprint, 2 F, 4 F, ... and the streaming footprint; kept
// = (t_streaming − t(F)) / (t_streaming − t_warm), each t the median over `repeat` rounds that time
// every F in turn (a shared machine's cache changes with its other tenants' work, so the sizes are
// interleaved, and t_warm and t_streaming timed beside the others, not taken from the curves). The
// streaming footprint closes the curve at 0: it evicts every cache by definition. On a GPU one point,
// all of the reported L2: the device is the run's alone, and there the probe, a launch-bound call of a
// few µs, cannot tell L2 from memory.
std::vector<RetentionPoint> cache_retention(const Executor& exec, const Calibration& c, int repeat) {
  if (exec.backend() != Backend::cpu) return {{c.device.cache_bytes, 1.0}};
  const index_t n = 1 << 16;
  const Vector x = filled(exec, n, 0.75);
  Vector y = filled(exec, n, 1.25);
  std::vector<double> copied;
  for (double f = c.warm_footprint; f < c.streaming_footprint; f *= 2) copied.push_back(f);
  copied.push_back(c.streaming_footprint);
  const CacheFlush largest(exec, c.streaming_footprint);  // its first part is each copy of F bytes
  std::vector<std::vector<double>> seconds(copied.size());
  for (int round = 0; round < warmup_calls + repeat; ++round)
    for (std::size_t i = 0; i < copied.size(); ++i) {
      largest(copied[i]);
      const auto start = std::chrono::steady_clock::now();
      axpby(exec, 0.5, x, 0.5, y);
      if (round >= warmup_calls)
        seconds[i].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  std::vector<double> t;
  for (const std::vector<double>& s : seconds) t.push_back(bench::median(s));
  const double warm = t.front(), streaming = t.back();
  std::vector<RetentionPoint> points;
  for (std::size_t i = 0; i + 1 < copied.size(); ++i)
    points.push_back({copied[i], streaming > warm ? std::clamp((streaming - t[i]) / (streaming - warm), 0.0, 1.0) : 0.0});
  points.push_back({c.streaming_footprint, 0.0});
  return points;
}

// Calibration::pointwise_flops_per_second: the WALE eddy-viscosity kernel on 2^16 cells of random
// gradients (hot: its 88 bytes per cell stay in cache, its flops decide): counted flops over time.
double pointwise_flops_per_second(const Executor& exec, int repeat) {
  const index_t n = 1 << 16;
  std::array<Vector, 9> gradient;
  std::array<const Vector*, 9> g{};
  for (int k = 0; k < 9; ++k) gradient[k] = bench::random_vector(exec, n, 40 + k), g[k] = &gradient[k];
  const Vector width = filled(exec, n, 0.1);
  Vector nu_t(exec, n);
  const auto call = [&] { eddy_viscosity(exec, LesModel::wale, 0.5, g, width, nu_t); };
  const KernelCounters before = exec.counters();
  call();
  const double flops = exec.counters().since(before).total().flops;
  const double seconds = exec.backend() == Backend::cpu ? bench::median_call_seconds(exec, warmup_calls, repeat, call)
                                                        : pipelined_seconds(exec, repeat, {}, call);
  return flops / seconds;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

}  // namespace

Calibration calibrate(const Executor& exec, const CalibrationSettings& settings, double copy_gb_per_s,
                      std::ostream& log) {
  Calibration c;
  c.device = describe_device(exec);
  c.build = describe_build();
  c.date = utc_now();
  c.copy_gb_per_s = copy_gb_per_s;
  c.streaming_footprint =
      settings.flush_bytes > 0 ? settings.flush_bytes : std::max(2.0 * c.device.cache_bytes, 256.0 * (1 << 20));
  c.warm_footprint = settings.warm_flush_bytes > 0 ? settings.warm_flush_bytes
                     : c.device.private_cache_bytes > 0 ? 4 * c.device.private_cache_bytes
                                                        : 8.0 * (1 << 20);
  const CacheFlush warm_flush(exec, c.warm_footprint), flush(exec, c.streaming_footprint);
  const Timer timer{exec, warm_flush, flush, settings.repeat};
  Points points;
  for (const index_t n : settings.vector_sizes) {
    log << "  vector kernels, n = " << n << "\n" << std::flush;
    time_vector_kernels(timer, n, points);
  }
  for (const index_t rows : settings.spmv_rows) {
    log << "  spmv, about " << rows << " rows\n" << std::flush;
    time_spmv(timer, rows, points);
  }
  c.curves = curves_of(points.launched);
  if (exec.backend() != Backend::cpu) c.graph_curves = curves_of(points.replayed);
  IterationCalibrationSettings iterations;
  iterations.rows = settings.iteration_rows;
  iterations.width_planes = settings.width_planes;
  iterations.repeat = settings.repeat;
  c.iteration_curves = calibrate_iterations(exec, iterations, log);
  BatchedCosts batched = calibrate_batched_costs(exec, iterations, log);
  c.batched_widths = std::move(batched.widths);
  c.batched_amg_blocks = std::move(batched.amg_blocks);
  c.sync_seconds = sync_seconds(exec, *std::min_element(settings.vector_sizes.begin(), settings.vector_sizes.end()),
                                settings.repeat);
  // Many rounds: a round is a fraction of a second, and a share is the small difference of two times.
  c.cache_retention = cache_retention(exec, c, 4 * settings.repeat);
  c.pointwise_flops_per_second = pointwise_flops_per_second(exec, settings.repeat);
  log << "  pointwise compute ceiling (eddy viscosity, WALE): " << c.pointwise_flops_per_second / 1e9 << " Gflop/s\n";
  log << "  last-level cache kept between two uses of an operand: half of it up to " << c.retained_cache_bytes() / 1048576.0
      << " MiB of other traffic (reported: " << c.device.cache_bytes / 1048576.0 << " MiB)\n";
  log << "  host round trip of a synchronising call: " << c.sync_seconds * 1e6 << " us\n";
  return c;
}

}  // namespace miniapp::predict
