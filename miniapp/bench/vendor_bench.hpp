#pragma once
#include <iosfwd>
#include <span>

#include "miniapp/bench/kernel_bench.hpp"
#include "operators/backend/device_matrix.hpp"

namespace miniapp::bench {

// The data one mesh's kernels were timed on (CUDA executor).
struct BenchData {
  const Executor& exec;
  const SellMatrix& host_sell;  // the host copy of `sell`
  const DeviceCsr& csr;
  const DeviceSell& sell;
  const Vector& x;
  const Vector& y;  // the initial y of the AXPY (its values, not its state after our calls, are used)
};

// Fills the baseline fields of `ours` (spmv_csr, spmv_sell, axpy, dot, in that order, as timed by
// run_kernel_bench) with cuSPARSE CSR (CUSPARSE_SPMV_CSR_ALG1) and sliced-ELL
// (CUSPARSE_SPMV_SELL_ALG1) SpMV, cublasDaxpy and cublasDdot on the same arrays. Before timing each
// baseline, checks that its result equals ours within a relative 1e-12 (max |difference| / max
// |ours|) and says so in `log`; throws miniapp::Error naming the kernel and the mesh if it does not.
// Timed like ours: CUDA events, warm-up, median of `repeat` samples of bench_queued_calls calls.
void add_vendor_baselines(const BenchData& data, int repeat, std::span<KernelRecord> ours, std::ostream& log);

}  // namespace miniapp::bench
