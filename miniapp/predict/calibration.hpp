#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "miniapp/predict/comm_model.hpp"
#include "miniapp/predict/cost_curve.hpp"
#include "miniapp/predict/iteration_unit.hpp"
#include "operators/backend/executor.hpp"

// Measured kernel costs of one device and build: what the prediction multiplies the kernel counts by.
namespace miniapp::predict {

// The kernels calibrated: the SpMV variants (format, vectors per call: one per SpmvForm) and one per
// other kernel class.
enum class KernelVariant { spmv_sell_1, spmv_sell_3, spmv_csr_1, spmv_interleaved_3, axpy, dot, pointwise, copy };
inline constexpr int kernel_variant_count = 8;
std::string_view name(KernelVariant variant);
std::optional<KernelVariant> kernel_variant_from_name(std::string_view text);

// The variant whose curve prices the calls a kernel counter of `kind` records (SpMV: of form
// SpmvForm::sell), and the SpMV calls of `form` (three vectors standing for any number above one).
KernelVariant priced_variant(KernelKind kind);
KernelVariant priced_variant(SpmvForm form);

// Where the operands live between calls: `hot` re-runs on the same operands (they stay in the caches
// when they fit); `warm` evicts the private caches before each call (a copy of 4 × the CPU's L2: the
// operands come from the last-level cache); `streaming` evicts every cache (each call reads memory).
enum class CacheLevel { hot, warm, streaming };
inline constexpr int cache_level_count = 3;
std::string_view name(CacheLevel level);

// What a calibration is only valid for. `description` is Executor::description() (backend, device
// name, CPU thread count); `cache_bytes` the last-level cache (CPU L3 or GPU L2; 0 when unknown),
// `private_cache_bytes` the cache private to a core (CPU L2; GPU: none, 0).
struct DeviceDescription {
  std::string backend, description;
  double cache_bytes = 0;
  double private_cache_bytes = 0;
  bool operator==(const DeviceDescription&) const = default;
};

// The build that measured it: commit, compiler, build type, CUDA on or off (build_info.hpp).
struct BuildDescription {
  std::string git, compiler, build_type;
  bool cuda = false;
  bool operator==(const BuildDescription&) const = default;
};

// One point of Calibration::cache_retention.
struct RetentionPoint {
  double bytes = 0;  // other traffic since an operand's last use
  double kept = 0;   // (t_streaming − t) / (t_streaming − t_warm) of its next use, in [0, 1]
  bool operator==(const RetentionPoint&) const = default;
};

// One point of Calibration::batched_widths.
struct WidthPoint {
  double rows = 0;     // rows of each system (a plane's cells)
  double systems = 0;  // systems the iterations ran over
  double cost = 0;     // seconds per counted byte, over those of the iteration over the whole batch
  bool operator==(const WidthPoint&) const = default;
};

// One curve per kernel variant and cache level.
using CurveTable = std::array<std::array<CostCurve, cache_level_count>, kernel_variant_count>;

struct Calibration {
  DeviceDescription device;
  BuildDescription build;
  std::string date;              // UTC, ISO 8601
  double copy_gb_per_s = 0;      // bench::copy_bandwidth: the roofline's ceiling
  double streaming_footprint = 0;  // bytes copied before each call of the streaming curves
  double warm_footprint = 0;       // and of the warm curves
  // How much of the last-level cache a run keeps, by reuse distance: after `bytes` of other traffic
  // since an operand's last use, the share `kept` of it still found in that cache, points sorted by
  // bytes (kept_share between them). On the CPU measured (cache_retention in kernel_calibration.cpp:
  // on a machine shared with others less is kept than device.cache_bytes reports, and more traffic
  // evicts more of it gradually, not at one size); on a GPU, whose device is the run's alone, one
  // point: all of the reported L2. The prediction prices the sub-steps of a step with working set W
  // on kept_share(W) of the warm curves' time and the rest of the streaming curves'.
  std::vector<RetentionPoint> cache_retention;
  // The compute ceiling of pointwise work: counted flops per second of the eddy-viscosity kernel
  // (WALE), the heaviest pointwise call of a step, on operands in cache. A pointwise call costs the
  // larger of its memory curve and flops / this (0: no ceiling). On a CPU that kernel is compute-bound;
  // on a GPU the memory curve stays the larger.
  double pointwise_flops_per_second = 0;
  // The host round trip of a call that returns a value to the host (dot, multi_dot, a CG progress
  // read), on top of its curve: on asynchronous backends the curves are pipelined costs (launch
  // overlapped with the previous kernel) and such a call waits for the stream to drain and restarts
  // it. 0 on synchronous backends (CPU).
  double sync_seconds = 0;
  CurveTable curves;  // calls launched one by one on the stream (pipelined on asynchronous backends)
  // Calls replayed from a recorded kernel graph (KernelGraph, as Pcg replays its iterations): each
  // node starts without a launch from the host, so its latency is lower. Only on backends that record
  // graphs (CUDA); none on the CPU, whose calls cost the same either way.
  std::optional<CurveTable> graph_curves;
  // Seconds per Poisson iteration against the bytes it moves and the calls it launches, per
  // IterationUnit, timed whole (a solve of n2 iterations less one of n1); the iterations of other
  // solvers are priced by the kernel curves (graph_curves where they replay graphs).
  std::array<std::optional<CostCurve>, iteration_unit_count> iteration_curves{};
  // The FFT path's batched iteration over fewer of its interleaved systems (x[row · S + s]) than the
  // batch holds still moves whole cache lines (GPU: sectors) of every row for the few values it uses,
  // so it costs more per counted byte than an iteration over all of them: its cost per byte against
  // that of the whole batch on the same rows, timed on batches of
  // IterationCalibrationSettings::batched_systems plane systems at a few plane sizes and widths
  // (calibrate_batched_costs). Points sorted by rows, then by systems.
  std::vector<WidthPoint> batched_widths;
  // An AMG block's V-cycle (FrequencyPreconditioner's leading blocks) at its cost per byte against
  // the whole Jacobi batch's: its apply on the first block of `systems` of the batch timed alone, per
  // plane of batched_widths (calibrate_batched_costs); points sorted by rows. Prices the bytes of a
  // case's leading blocks and their r·z pass.
  std::vector<WidthPoint> batched_amg_blocks;
  // Halo updates and reductions between ranks, when calibrated under mpirun with 2 or more ranks.
  std::optional<CommCalibration> communication;

  const CostCurve& curve(KernelVariant v, CacheLevel level) const {
    return curves[static_cast<int>(v)][static_cast<int>(level)];
  }
  CostCurve& curve(KernelVariant v, CacheLevel level) { return curves[static_cast<int>(v)][static_cast<int>(level)]; }
  // The curve of calls replayed from a graph; precondition: graph_curves is set.
  const CostCurve& graph_curve(KernelVariant v, CacheLevel level) const {
    return (*graph_curves)[static_cast<int>(v)][static_cast<int>(level)];
  }

  // The share kept after `bytes` of other traffic: the first point's share up to its bytes, linear in
  // log bytes between points, 0 beyond the last (none kept when there are no points).
  double kept_share(double bytes) const;
  // The most bytes of other traffic after which at least half is kept, 0 when none: the size of the
  // cache a run keeps, as the reports state it.
  double retained_cache_bytes() const;

  // The cost per byte of a batched iteration over `systems` systems of `rows` rows, against the whole
  // batch's: linear in log systems, then in log rows, between the points; the nearest points' beyond
  // them; 1 without points.
  double batched_width_cost(double rows, double systems) const;
  // The cost per byte of an AMG block's V-cycle on planes of `rows` rows, against the whole Jacobi
  // batch's: linear in log rows between the points, the nearest point's beyond; 1 without points.
  double batched_amg_cost(double rows) const;

  const std::optional<CostCurve>& iteration_curve(IterationUnit unit) const {
    return iteration_curves[static_cast<int>(unit)];
  }

  // The same calibration for a device whose memory bandwidth is `gb_per_s` (every curve scaled by
  // gb_per_s / copy_gb_per_s) and whose per-call latency is `latency_seconds` (< 0: each curve keeps
  // its own; the graph and iteration curves keep theirs either way, a graph node has no launch to speed up): the
  // "what if" device. Its cache and its host round trip are taken as this device's.
  Calibration what_if(double gb_per_s, double latency_seconds, const std::string& description) const;
};

// This process's device and build, to stamp a new calibration or to check a stored one against.
DeviceDescription describe_device(const Executor& exec);
BuildDescription describe_build();

}  // namespace miniapp::predict
