#include "miniapp/bench/kernel_bench.hpp"

#include <array>
#include <cmath>
#include <ostream>
#include <span>

#include "mesh/geometry.hpp"
#include "miniapp/bench/random_vector.hpp"
#include "miniapp/bench/timing.hpp"
#include "miniapp/bench/vendor_bench.hpp"
#include "miniapp/case/case_mesh.hpp"
#include "operators/fv/convection_operator.hpp"
#include "operators/fv/flow_operators.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/kernels/dot.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "operators/sparse/reorder.hpp"
#include "solvers/aip.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::bench {

std::string_view name(BenchMatrix matrix) { return matrix == BenchMatrix::laplacian ? "laplacian" : "convection"; }

cases::MeshConfig bench_mesh_options(cases::MeshGenerator kind, long long cells) {
  using G = cases::MeshGenerator;
  // Cells per generated hexahedron: the tet box splits each in 6, the prism mesh each quad in 2.
  const double per_hex = kind == G::tet ? 6.0 : kind == G::prism ? 2.0 : 1.0;
  const auto n = std::max<index_t>(1, static_cast<index_t>(std::lround(std::cbrt(cells / per_hex))));
  cases::MeshConfig options;
  options.generator = kind;
  options.cells = {n, n, n};
  return options;
}

namespace {

constexpr int warmup_calls = 3;

// Times one kernel; the bytes per call are what the front end adds to the executor's counters.
template <class F>
KernelRecord time_kernel(const Executor& exec, KernelKind kind, int repeat, F&& call) {
  exec.counters().reset();
  call();
  KernelRecord record;
  record.bytes = exec.counters().tally(kind).bytes;
  record.seconds = median_call_seconds(exec, warmup_calls, repeat, call, bench_queued_calls);
  return record;
}

// Iterations of the two solves whose difference times the PCG iteration: the set-up of a solve (initial
// residual, projections, the first host reads) is in both and cancels. Multiples of the CUDA check
// interval, so that every batch is a whole graph; few enough that CG on a 10⁴-cell mesh is still far
// from round-off (it would stop on a breakdown there).
constexpr int pcg_short = 8, pcg_long = 56;
constexpr int pcg_max_repeat = 10;  // each repeat is a whole solve of up to 56 iterations

// Median device time of a PCG solve of A x = b capped at `iterations` (tolerance 0: it never
// converges first), and the bytes its kernels count; throws when it stops early.
std::pair<double, double> time_pcg_solve(const Executor& exec, Pcg& pcg, const DeviceSell& a, const Aip& m,
                                         const Vector& b, Vector& x, int iterations, bool graphs, int repeat) {
  PcgOptions options;
  options.tolerance = 0;
  options.max_iterations = iterations;
  options.singular = true;
  options.graphs = graphs;
  int done = iterations, replayed = 0;
  const auto solve = [&] {
    fill(exec, 0.0, x);
    const PcgResult result = pcg.solve(a, m, b, x, options);
    done = std::min(done, result.iterations);
    replayed = result.replayed_batches;
  };
  exec.counters().reset();
  solve();
  const double bytes = exec.counters().total().bytes;
  const double seconds = median_call_seconds(exec, 1, std::min(repeat, pcg_max_repeat), solve);
  if (done != iterations)
    throw Error("bench kernels: PCG stopped after " + std::to_string(done) + " of " + std::to_string(iterations) +
                " iterations (breakdown at round-off: the mesh is too small for the PCG timing)");
  if (graphs && replayed == 0)
    throw Error("bench kernels: PCG could not record its iterations as a CUDA Graph (the preconditioner's "
                "apply synchronises or allocates); pcg_aip1 would time plain launches");
  return {seconds, bytes};
}

// One PCG iteration with AIP-1 on −L (the pressure system: singular, constants as null space), timed
// with nothing synchronised per kernel: (t(56 iterations) − t(8)) / 48, with its counted bytes
// likewise. "pcg_aip1" replays the iterations as CUDA Graphs (CUDA only), "pcg_aip1_plain" launches
// them one by one. The bandwidth-bound time of an iteration is its bytes / copy bandwidth.
std::vector<KernelRecord> bench_pcg(const Executor& exec, const CsrMatrix& l, int repeat, std::ostream& log) {
  const CsrMatrix minus_l = negated(l);
  const index_t n = l.rows;
  log << "    AIP-1 set-up (host)\n" << std::flush;
  const Aip m(exec, minus_l, 1, exec.default_slice_height());
  const DeviceSell a(exec, to_sell(minus_l, exec.default_slice_height()));
  const Vector b = random_vector(exec, n, 3);
  Vector x(exec, n);
  Pcg pcg(exec, n);
  std::vector<KernelRecord> records;
  for (const bool graphs : {true, false}) {
    if (graphs && exec.backend() != Backend::cuda) continue;
    std::pair<double, double> long_solve, short_solve;
    try {  // a failure costs this record only: one run on a borrowed GPU should return every figure it can
      long_solve = time_pcg_solve(exec, pcg, a, m, b, x, pcg_long, graphs, repeat);
      short_solve = time_pcg_solve(exec, pcg, a, m, b, x, pcg_short, graphs, repeat);
    } catch (const Error& e) {
      log << "    PCG FAILED: " << e.what() << "\n";
      continue;
    }
    const auto [long_seconds, long_bytes] = long_solve;
    const auto [short_seconds, short_bytes] = short_solve;
    KernelRecord record;
    record.kernel = graphs ? "pcg_aip1" : "pcg_aip1_plain";
    record.seconds = (long_seconds - short_seconds) / (pcg_long - pcg_short);
    record.bytes = (long_bytes - short_bytes) / (pcg_long - pcg_short);
    records.push_back(record);
  }
  return records;
}

// Adds one record per call to `records`, named for one mesh and one matrix.
class Recorder {
 public:
  Recorder(std::vector<KernelRecord>& records, std::string mesh) : records_(records), mesh_(std::move(mesh)) {}
  void add(KernelRecord record, const std::string& kernel, std::string_view matrix, index_t rows, index_t nnz,
           index_t stored) {
    record.kernel = kernel;
    record.mesh = mesh_;
    record.matrix = matrix;
    record.rows = rows;
    record.nnz = nnz;
    record.stored_entries = stored;
    records_.push_back(std::move(record));
  }
  // The last `count` records added.
  template <std::size_t count>
  std::span<KernelRecord, count> last() {
    return std::span(records_).template last<count>();
  }

 private:
  std::vector<KernelRecord>& records_;
  std::string mesh_;
};

// y = A x with A in CSR and in sELL (and, on CUDA, cuSPARSE's two on the same arrays); returns the
// sELL copy on the device.
DeviceSell bench_spmv(const Executor& exec, const CsrMatrix& a, const Vector& x, BenchMatrix matrix, int repeat,
                      Recorder& recorder, std::ostream& log) {
  const DeviceCsr csr(exec, a);
  const SellMatrix host_sell = to_sell(a, exec.default_slice_height());
  DeviceSell sell(exec, host_sell);
  Vector y(exec, a.rows);
  recorder.add(time_kernel(exec, KernelKind::spmv, repeat, [&] { spmv(exec, csr, x, y); }), "spmv_csr", name(matrix),
               a.rows, a.nnz(), a.nnz());
  recorder.add(time_kernel(exec, KernelKind::spmv, repeat, [&] { spmv(exec, sell, x, y); }), "spmv_sell",
               name(matrix), a.rows, a.nnz(), sell.stored_entries());
  if (exec.backend() == Backend::cuda)
    add_spmv_baselines({exec, host_sell, csr, sell, x}, repeat, recorder.last<2>(), log);
  return sell;
}

void bench_laplacian(const Executor& exec, const CsrMatrix& l, const KernelBenchSettings& settings,
                     Recorder& recorder, std::ostream& log) {
  const int repeat = settings.repeat;
  const index_t n = l.rows;
  const Vector x = random_vector(exec, n, 1);
  bench_spmv(exec, l, x, BenchMatrix::laplacian, repeat, recorder, log);
  const Vector y0 = random_vector(exec, n, 2);
  Vector y = random_vector(exec, n, 2);
  // a = b = 0.5 keeps y bounded over any number of repeats.
  recorder.add(time_kernel(exec, KernelKind::axpy, repeat, [&] { axpby(exec, 0.5, x, 0.5, y); }), "axpy", "", n, 0, 0);
  recorder.add(time_kernel(exec, KernelKind::dot, repeat, [&] { dot(exec, x, y); }), "dot", "", n, 0, 0);
  if (exec.backend() == Backend::cuda) add_vector_baselines(exec, x, y0, repeat, recorder.last<2>(), log);
  // The same DOT with its result left in device memory, as PCG's reductions: the kernel without the
  // host round trip that the synchronous "dot" above pays (copy-back, completion, wake-up).
  Vector result(exec, 1);
  recorder.add(time_kernel(exec, KernelKind::dot, repeat, [&] { dot(exec, x, y, result); }), "dot_dev", "", n, 0, 0);
  if (settings.pcg)
    for (const KernelRecord& record : bench_pcg(exec, l, repeat, log))
      recorder.add(record, record.kernel, name(BenchMatrix::laplacian), n, l.nnz(), 0);
}

// The convection operator as the time loop holds it (fv::FlowOperators, time::DeviceOperators), its
// cells in `order`: E_C maps the face velocity u_s to the sELL values of C(u_s), which the predictor
// applies to the three velocity components at once.
void bench_convection(const Executor& exec, const mesh::Mesh& m, const mesh::MeshGeometry& geometry,
                      const Permutation& order, int repeat, Recorder& recorder, std::ostream& log) {
  log << "    flow operators (host)\n" << std::flush;
  fv::FlowBoundaries walls;
  walls.by_patch.assign(m.patches.size(), fv::BoundaryCondition{});
  const fv::FlowOperators ops = fv::assemble_flow_operators(m, geometry, walls, order);
  const CsrMatrix pattern = fv::momentum_pattern(ops.laplacian);
  SellMatrix layout = to_sell(pattern, exec.default_slice_height());
  const CsrMatrix update_map = fv::convection_map(m, geometry, ops, pattern, layout);
  const std::vector<double> face_velocity = random_values(m.face_count(), 4);
  const std::vector<double> values = reference_spmv(update_map, face_velocity);
  layout.val.assign(values.begin(), values.end());
  const CsrMatrix c = to_csr(layout);
  const std::string_view matrix = name(BenchMatrix::convection);

  const Vector x = random_vector(exec, c.cols, 1);
  DeviceSell sell = bench_spmv(exec, c, x, BenchMatrix::convection, repeat, recorder, log);
  const DeviceCsr device_map(exec, update_map);
  const Vector u_s = Vector::from_host(exec, face_velocity);
  recorder.add(time_kernel(exec, KernelKind::spmv, repeat, [&] { spmv(exec, device_map, u_s, sell.values()); }),
               "coef_update", matrix, update_map.rows, update_map.nnz(), update_map.nnz());
  const std::array<Vector, 3> w = {random_vector(exec, c.rows, 5), random_vector(exec, c.rows, 6),
                                   random_vector(exec, c.rows, 7)};
  std::array<Vector, 3> rw = {Vector(exec, c.rows), Vector(exec, c.rows), Vector(exec, c.rows)};
  const Vector* inputs[] = {&w[0], &w[1], &w[2]};
  Vector* outputs[] = {&rw[0], &rw[1], &rw[2]};
  recorder.add(time_kernel(exec, KernelKind::spmv, repeat, [&] { spmv_multi(exec, sell, inputs, outputs); }),
               "spmv_sell_x3", matrix, c.rows, c.nnz(), sell.stored_entries());
}

void bench_one_mesh(const Executor& exec, const cases::MeshConfig& options, const KernelBenchSettings& settings,
                    std::vector<KernelRecord>& records, std::ostream& log) {
  const mesh::Mesh m = cases::make_case_mesh(options);
  const mesh::MeshGeometry geometry = mesh::compute_geometry(m);
  // One cell order for both matrices, as in the time loop.
  const CsrMatrix l = fv::laplacian_matrix(m, geometry);
  const Permutation order = fv::default_cell_order(m, l);
  Recorder recorder(records, std::string(cases::name(options.generator)) + " " + std::to_string(options.cells[0]) + "^3");
  for (const BenchMatrix matrix : settings.matrices) {
    if (matrix == BenchMatrix::laplacian) bench_laplacian(exec, permute_symmetric(l, order), settings, recorder, log);
    else bench_convection(exec, m, geometry, order, settings.repeat, recorder, log);
  }
}

}  // namespace

std::vector<KernelRecord> run_kernel_bench(const Executor& exec, const KernelBenchSettings& settings,
                                           std::ostream& log) {
  std::vector<KernelRecord> records;
  for (const cases::MeshGenerator kind : settings.meshes)
    for (const long long size : settings.sizes) {
      const cases::MeshConfig options = bench_mesh_options(kind, size);
      log << "  " << cli::describe(options) << " (" << cli::generated_cell_count(options) << " cells)\n" << std::flush;
      bench_one_mesh(exec, options, settings, records, log);
    }
  return records;
}

}  // namespace miniapp::bench
