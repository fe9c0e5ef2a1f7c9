#include "miniapp/bench/vendor_bench.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>

#include "miniapp/bench/timing.hpp"
#include "operators/backend/cuda/vendor_kernels.hpp"
#include "operators/kernels/dot.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::bench {
namespace {

constexpr int warmup_calls = 3;
constexpr double agreement = 1e-12;

// The column array of `a` with −1 at every padding entry (entry k ≥ row_length[r] of row r, and
// every entry of the rows of the last slice past a.rows): cuSPARSE's sliced-ELL convention, where
// ours repeats a valid column instead.
std::vector<index_t> cusparse_padded_columns(const SellMatrix& a) {
  std::vector<index_t> col(a.col.begin(), a.col.end());
  for (index_t s = 0; s < a.slice_count(); ++s)
    for (index_t local = 0; local < a.slice_height; ++local) {
      const index_t row = s * a.slice_height + local;
      const index_t length = row < a.rows ? a.row_length[row] : 0;
      for (index_t k = length; k < a.slice_width(s); ++k) col[a.slice_ptr[s] + k * a.slice_height + local] = -1;
    }
  return col;
}

double max_relative_difference(const std::vector<double>& got, const std::vector<double>& want) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    diff = std::max(diff, std::abs(got[i] - want[i]));
    norm = std::max(norm, std::abs(want[i]));
  }
  return std::isnan(diff) ? INFINITY : diff / (norm > 0 ? norm : 1.0);
}

// Records the check in `record` and `log`; throws when the library disagrees with ours.
void check_agreement(KernelRecord& record, double difference, std::ostream& log) {
  record.baseline_difference = difference;
  std::ostringstream text;
  text << record.baseline << " vs ours (" << record.kernel << ", " << record.mesh
       << (record.matrix.empty() ? "" : " " + record.matrix) << "): max relative difference "
       << difference;
  if (!(difference <= agreement))
    throw Error("bench kernels: " + text.str() + " exceeds 1e-12: the library and our kernel disagree");
  log << "    check passed: " << text.str() << " <= 1e-12\n";
}

// Runs one baseline (check, then timing) for `record`. A failure (library error, disagreement) is
// logged and kept in the record, and the benchmark goes on with the next one: one run on a
// borrowed GPU should return every figure it can.
template <class F>
void guarded(KernelRecord& record, const char* library, std::ostream& log, F&& baseline) {
  record.baseline = library;
  try {
    baseline();
  } catch (const Error& e) {
    record.baseline_failure = e.what();
    log << "    BASELINE FAILED: " << e.what() << "\n";
  }
}

// Checks y_library = A x from `spmv_library` against y_ours, then times it.
void spmv_baseline(const SpmvData& d, cuda::VendorSpmv spmv_library, const Vector& y_ours, Vector& y_library,
                   int repeat, KernelRecord& record, std::ostream& log) {
  fill(d.exec, 0.0, y_library);
  spmv_library.run();
  check_agreement(record, max_relative_difference(y_library.to_host(), y_ours.to_host()), log);
  record.baseline_seconds =
      median_call_seconds(d.exec, warmup_calls, repeat, [&] { spmv_library.run(); }, bench_queued_calls);
}

}  // namespace

void add_spmv_baselines(const SpmvData& d, int repeat, std::span<KernelRecord, 2> ours, std::ostream& log) {
  const Executor& exec = d.exec;
  const index_t n = d.sell.rows();
  Vector y_ours(exec, n), y_library(exec, n);
  guarded(ours[0], "cusparse csr_alg1", log, [&] {
    spmv(exec, d.csr, d.x, y_ours);
    auto library = cuda::VendorSpmv::csr(exec.stream(), d.csr.view(), d.csr.nnz(), d.x.data(), y_library.data());
    spmv_baseline(d, std::move(library), y_ours, y_library, repeat, ours[0], log);
  });
  guarded(ours[1], "cusparse sell_alg1", log, [&] {
    spmv(exec, d.sell, d.x, y_ours);
    const auto padded = Array<index_t>::from_host(exec, cusparse_padded_columns(d.host_sell));
    auto library = cuda::VendorSpmv::sell(exec.stream(), d.sell.view(), d.sell.nnz(), padded.data(), d.x.data(),
                                          y_library.data());
    spmv_baseline(d, std::move(library), y_ours, y_library, repeat, ours[1], log);
  });
}

void add_vector_baselines(const Executor& exec, const Vector& x, const Vector& y0, int repeat,
                          std::span<KernelRecord, 2> ours, std::ostream& log) {
  const index_t n = x.size();
  Vector y_ours(exec, n), y_library(exec, n);
  cuda::VendorBlas blas(exec.stream());
  const std::vector<double> y0_host = y0.to_host();
  // cublasDaxpy computes y += a x: ours is checked on the same operation (b = 1); the timings compare
  // it with ours as run_kernel_bench timed it (b = 0.5: the same 24 bytes per element).
  guarded(ours[0], "cublas daxpy", log, [&] {
    y_ours.copy_from_host(y0_host);
    y_library.copy_from_host(y0_host);
    axpby(exec, 0.5, x, 1.0, y_ours);
    blas.axpy(n, 0.5, x.data(), y_library.data());
    check_agreement(ours[0], max_relative_difference(y_library.to_host(), y_ours.to_host()), log);
    ours[0].baseline_seconds = median_call_seconds(
        exec, warmup_calls, repeat, [&] { blas.axpy(n, 0.5, x.data(), y_library.data()); }, bench_queued_calls);
  });
  guarded(ours[1], "cublas ddot", log, [&] {
    y_library.copy_from_host(y0_host);
    const double dot_ours = dot(exec, x, y_library), dot_library = blas.dot(n, x.data(), y_library.data());
    check_agreement(ours[1], std::abs(dot_library - dot_ours) / std::abs(dot_ours), log);
    ours[1].baseline_seconds = median_call_seconds(
        exec, warmup_calls, repeat, [&] { blas.dot(n, x.data(), y_library.data()); }, bench_queued_calls);
  });
}

}  // namespace miniapp::bench
