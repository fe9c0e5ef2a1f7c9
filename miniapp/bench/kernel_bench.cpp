#include "miniapp/bench/kernel_bench.hpp"

#include <cmath>
#include <ostream>
#include <random>

#include "mesh/geometry.hpp"
#include "miniapp/bench/timing.hpp"
#include "miniapp/bench/vendor_bench.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/kernels/dot.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "operators/sparse/reorder.hpp"

namespace miniapp::bench {

cli::MeshOptions bench_mesh_options(cli::MeshKind kind, long long cells) {
  // Cells per generated hexahedron: the tet box splits each in 6, the prism mesh each quad in 2.
  const double per_hex = kind == cli::MeshKind::tet ? 6.0 : kind == cli::MeshKind::prism ? 2.0 : 1.0;
  const auto n = std::max<index_t>(1, static_cast<index_t>(std::lround(std::cbrt(cells / per_hex))));
  cli::MeshOptions options;
  options.kind = kind;
  options.cells = {n, n, n};
  return options;
}

namespace {

constexpr int warmup_calls = 3;

Vector random_vector(const Executor& exec, index_t n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> value(0.5, 1.5);  // non-zero: no shortcut on zeros
  std::vector<double> host(static_cast<std::size_t>(n));
  for (double& v : host) v = value(engine);
  return Vector::from_host(exec, host);
}

// Times one kernel; the bytes per call are what the front end adds to the executor's counters.
template <class F>
KernelRecord time_kernel(const Executor& exec, KernelKind kind, int repeat, F&& call) {
  exec.counters().reset();
  call();
  KernelRecord record;
  record.bytes = exec.counters().tally(kind).bytes;
  record.seconds = median_call_seconds(exec, warmup_calls, repeat, call);
  return record;
}

CsrMatrix reordered_laplacian(const cli::MeshOptions& options) {
  const mesh::Mesh m = cli::make_mesh(options);
  const CsrMatrix l = fv::laplacian_matrix(m, mesh::compute_geometry(m));
  return permute_symmetric(l, row_grouping_rcm(l));
}

void bench_one_mesh(const Executor& exec, const cli::MeshOptions& options, int repeat,
                    std::vector<KernelRecord>& records, std::ostream& log) {
  const CsrMatrix l = reordered_laplacian(options);
  const index_t n = l.rows;
  const DeviceCsr csr(exec, l);
  const SellMatrix host_sell = to_sell(l, exec.default_slice_height());
  const DeviceSell sell(exec, host_sell);
  const Vector x = random_vector(exec, n, 1);
  Vector y = random_vector(exec, n, 2);
  const std::string name = std::string(cli::kind_name(options.kind)) + " " + std::to_string(options.cells[0]) + "^3";

  const auto add = [&](KernelRecord record, const char* kernel, index_t nnz, index_t stored) {
    record.kernel = kernel;
    record.mesh = name;
    record.rows = n;
    record.nnz = nnz;
    record.stored_entries = stored;
    records.push_back(record);
  };
  add(time_kernel(exec, KernelKind::spmv, repeat, [&] { spmv(exec, csr, x, y); }), "spmv_csr", l.nnz(), l.nnz());
  add(time_kernel(exec, KernelKind::spmv, repeat, [&] { spmv(exec, sell, x, y); }), "spmv_sell", l.nnz(),
      sell.stored_entries());
  // a = b = 0.5 keeps y bounded over any number of repeats.
  add(time_kernel(exec, KernelKind::axpy, repeat, [&] { axpby(exec, 0.5, x, 0.5, y); }), "axpy", 0, 0);
  add(time_kernel(exec, KernelKind::dot, repeat, [&] { dot(exec, x, y); }), "dot", 0, 0);
  if (exec.backend() == Backend::cuda) {
    const Vector y0 = random_vector(exec, n, 2);
    add_vendor_baselines({exec, host_sell, csr, sell, x, y0}, repeat, std::span(records).last(4), log);
  }
}

}  // namespace

std::vector<KernelRecord> run_kernel_bench(const Executor& exec, const KernelBenchSettings& settings,
                                           std::ostream& log) {
  std::vector<KernelRecord> records;
  for (const cli::MeshKind kind : settings.meshes)
    for (const long long size : settings.sizes) {
      const cli::MeshOptions options = bench_mesh_options(kind, size);
      log << "  " << cli::describe(options) << " (" << cli::generated_cell_count(options) << " cells)\n" << std::flush;
      bench_one_mesh(exec, options, settings.repeat, records, log);
    }
  return records;
}

}  // namespace miniapp::bench
