#pragma once
#include <iosfwd>
#include <span>

#include "miniapp/bench/kernel_bench.hpp"
#include "operators/backend/device_matrix.hpp"

namespace miniapp::bench {

// The matrix, in both formats, and the vector one SpMV was timed on (CUDA executor).
struct SpmvData {
  const Executor& exec;
  const SellMatrix& host_sell;  // the host copy of `sell`
  const DeviceCsr& csr;
  const DeviceSell& sell;
  const Vector& x;
};

// Fills the baseline fields of `ours` (spmv_csr then spmv_sell, as timed by run_kernel_bench) with
// cuSPARSE CSR (CUSPARSE_SPMV_CSR_ALG1) and sliced-ELL (CUSPARSE_SPMV_SELL_ALG1) SpMV on the same
// arrays. Before timing each baseline, checks that its result equals ours within a relative 1e-12
// (max |difference| / max |ours|) and says so in `log`. A baseline that fails (library error,
// disagreement) keeps its reason in baseline_failure and the others go on. Timed like ours: CUDA
// events, warm-up, median of `repeat` samples of bench_queued_calls calls.
void add_spmv_baselines(const SpmvData& data, int repeat, std::span<KernelRecord, 2> ours, std::ostream& log);

// The same for `ours` = axpy then dot on x and y (y's values before our calls: `y0`), with
// cublasDaxpy and cublasDdot.
void add_vector_baselines(const Executor& exec, const Vector& x, const Vector& y0, int repeat,
                          std::span<KernelRecord, 2> ours, std::ostream& log);

}  // namespace miniapp::bench
