#include "solvers/pcg.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>

#include "operators/kernels/cg_kernels.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp {

int default_check_interval(Backend backend) { return backend == Backend::cuda ? 8 : 1; }

double host_reads_per_iteration(Backend backend) {
  if (KernelGraph::loops_supported(backend)) return 0.0;
  return 1.0 / default_check_interval(backend);
}

Pcg::Pcg(const Executor& exec, index_t rows)
    : exec_(exec), rows_(rows), r_(exec, rows), r_next_(exec, rows), z_(exec, rows), p_(exec, rows), q_(exec, rows),
      rhs_(exec, rows), scalars_(exec), batch_(exec) {}

namespace {

void check_sizes(const DeviceSell& a, const Vector& b, const Vector& x, index_t rows) {
  if (a.rows() != rows || a.cols() != rows || b.size() != rows || x.size() != rows) {
    std::ostringstream msg;
    msg << "Pcg::solve: sizes do not match: solver " << rows << ", matrix " << a.rows() << " × " << a.cols()
        << ", b " << b.size() << ", x " << x.size();
    throw Error(msg.str());
  }
}

}  // namespace

std::string pcg_cap_warning(int iterations, double residual, const PcgOptions& options) {
  std::ostringstream msg;
  msg << "PCG did not converge: relative residual " << residual << " (tolerance " << options.tolerance
      << ") after " << iterations << " iterations (cap " << options.max_iterations << ")";
  return msg.str();
}

void add_iterations(std::vector<IterationSize>& sizes, IterationSize more) {
  const auto same = std::find_if(sizes.begin(), sizes.end(), [&](const IterationSize& s) {
    return s.bytes == more.bytes && s.systems == more.systems && s.rows == more.rows;
  });
  if (same == sizes.end()) sizes.push_back(more);
  else same->iterations += more.iterations;
}

void set_outcome(PcgResult& result, const PcgOptions& options) {
  result.converged = result.relative_residual <= options.tolerance;
  if (!result.converged && result.warning.empty())
    result.warning = pcg_cap_warning(result.iterations, result.relative_residual, options);
}

std::string pcg_breakdown_warning(int iteration, double curvature) {
  std::ostringstream msg;
  msg << "PCG broke down at iteration " << iteration << ": pᵀAp = " << curvature
      << " is not positive (the matrix is not positive definite, or the data contain NaN)";
  return msg.str();
}

// Set-up of the iteration (once per solve), on the executor: r = b − A x, ‖b‖ and the initial residual
// test (cg_start), z = M⁻¹ r with ρ = r·z, p = z. Nothing is read back: a solve already converged (or
// with b = 0) has its status set, and the iteration kernels then do nothing.
void Pcg::start(const DeviceSell& a, const Preconditioner& m, const Vector& x, const PcgOptions& options) {
  spmv(exec_, a, x, q_);
  waxpby(exec_, 1.0, rhs_, -1.0, q_, r_);
  cg_start(exec_, rhs_, r_, scalars_, options.tolerance, options.max_iterations);
  if (!m.apply_with_rho(r_, z_, scalars_)) {  // its β is unused: p = z starts the directions
    m.apply(r_, z_);
    cg_rho(exec_, r_, z_, scalars_);
  }
  copy(exec_, z_, p_);
  cg_spmv_dot(exec_, a, p_, q_, scalars_);  // q = A p, α: the first step's
}

// Memory traffic per iteration, n rows, sELL with E stored entries and S slices: with Jacobi two
// kernels, cg_update_jacobi 64 n and cg_direction_spmv_dot 12 E + 4 S + 40 n (unfused: 12 E + 4 S + 144 n
// in 9 launches). The direction joins the product as A p = A z + β q_old, so that kernel gathers z alone.
// With AIP the update rides in the apply's passes (Preconditioner::apply_advancing): three kernels with
// two passes, two with the product Gᵀ G, whose single pass writes the new r apart from the old one.
// An iteration starts with the update: the set-up forms q = A p and α of the first step.
// One iteration's kernels, queued (asynchronous on CUDA).
void Pcg::queue_iteration(const DeviceSell& a, const Preconditioner& m, Vector& x, int k) {
  if (const Vector* d = m.diagonal_inverse()) {
    cg_update_jacobi(exec_, *d, p_, q_, x, r_, z_, scalars_);  // x, r, z = D⁻¹ r, β
  } else if (m.fuses_update()) {
    // x, r, z = M⁻¹ r, β in the apply's passes (AIP)
    m.apply_advancing(p_, q_, x, residual(m, k), residual(m, k + 1), z_, scalars_);
  } else {
    cg_update(exec_, p_, q_, x, r_, scalars_);
    if (!m.apply_with_rho(r_, z_, scalars_)) {  // z = M⁻¹ r and β, fused where M can
      m.apply(r_, z_);
      cg_rho(exec_, r_, z_, scalars_);  // β
    }
  }
  cg_direction_spmv_dot(exec_, a, z_, p_, q_, scalars_);  // p = z + β p, q = A p, α = ρ / pᵀq
}

// Batches of `interval` iterations. Every kernel takes its scalars from device memory, so all batches
// of a solve are the same calls with the same arguments: recorded once per solve and replayed
// (PcgOptions::graphs), as a loop that the device repeats until the solve stops (one host read per
// solve) where the runtime has conditional graph nodes, else batch by batch with a host read of the
// scalar block after each. Once per solve, not once per (matrix, preconditioner, x), unless the caller
// vouches for them (PcgOptions::keep_recording): a preconditioner's own arrays are not visible here,
// and one destroyed and rebuilt at the same address would otherwise replay stale pointers. A last,
// shorter batch (the iteration cap reached) is launched plainly. Where the residual alternates between
// two vectors (residual), a recorded batch must leave it where it found it: an odd interval is then
// launched plainly.
CgProgress Pcg::iterate(const DeviceSell& a, const Preconditioner& m, Vector& x, const PcgOptions& options,
                        PcgResult& result) {
  const KernelCounters before = exec_.counters();
  const int interval = options.check_interval > 0 ? options.check_interval
                       : m.batch_iterations() > 0 ? m.batch_iterations()
                                                  : default_check_interval(exec_.backend());
  const auto batch = [&] {  // starts at an even iteration where the residual alternates
    for (int i = 0; i < interval; ++i) queue_iteration(a, m, x, i);
  };
  const Recording wanted{&a, &m, x.data(), interval};
  bool replay = false;
  const bool recordable = !alternates(m) || interval % 2 == 0;
  if (options.graphs && recordable && interval <= options.max_iterations) {
    replay = options.keep_recording && recorded_ == wanted && batch_.reusable();
    if (!replay) {
      looped_ = batch_.record_loop([&](LoopCondition condition) {
        batch();
        cg_loop_test(exec_, scalars_, interval, condition);
      });
      replay = looped_ || batch_.record(batch);
      recorded_ = replay ? wanted : Recording{};
    }
  }
  CgProgress progress;
  int launched = 0;
  if (replay && looped_ && batch_.replay()) {  // no replay with profiling on
    progress = scalars_.read();
    batch_.count_runs(static_cast<std::uint64_t>(progress.loop_runs));
    result.replayed_batches = progress.loop_runs;
    launched = progress.loop_runs * interval;
  }
  while (launched < options.max_iterations && progress.status == cg::Status::running) {
    const int count = std::min(interval, options.max_iterations - launched);
    if (replay && !looped_ && count == interval && batch_.replay()) {
      ++result.replayed_batches;
    } else {
      for (int i = 0; i < count; ++i) queue_iteration(a, m, x, launched + i);
    }
    launched += count;
    progress = scalars_.read();
  }
  result.queued_iterations = launched;
  result.iteration_kernels = exec_.counters().since(before);
  return progress;
}

PcgResult Pcg::solve(const DeviceSell& a, const Preconditioner& m, const Vector& b, Vector& x,
                     const PcgOptions& options) {
  check_sizes(a, b, x, rows_);
  if (options.check_interval < 0)
    throw Error("Pcg::solve: check_interval is " + std::to_string(options.check_interval) +
                "; expected 0 (the backend's default) or a positive number of iterations");
  copy(exec_, b, rhs_);
  if (options.singular) {
    // A consistent right-hand side (orthogonal to the null space) and a guess without its null-space
    // component; r stays orthogonal to the constants up to round-off since every column of A sums to 0.
    cg_remove_mean(exec_, rhs_, scalars_);
    cg_remove_mean(exec_, x, scalars_);
  }
  start(a, m, x, options);
  PcgResult result;
  const CgProgress progress = options.max_iterations > 0 ? iterate(a, m, x, options, result) : scalars_.read();
  result.iterations = progress.iterations;
  result.relative_residual = progress.relative_residual;
  if (progress.status == cg::Status::zero_rhs) {
    fill(exec_, 0.0, x);  // the solution of A x = 0 (of minimum norm in singular mode)
  } else {
    if (progress.status == cg::Status::breakdown)
      result.warning = pcg_breakdown_warning(progress.iterations, progress.curvature);
    if (options.singular) cg_remove_mean(exec_, x, scalars_);
  }
  set_outcome(result, options);
  return result;
}

}  // namespace miniapp
