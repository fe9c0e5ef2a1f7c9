// Batched PCG over shifted systems that share one matrix, written against the batched front ends so
// that the same loop runs on the CPU and on CUDA.
#include "solvers/fft/batched_pcg.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>

#include "operators/kernels/vector_ops.hpp"
#include "solvers/amg/level_matrix.hpp"  // csr_device_bytes
#include "solvers/fft/batched_shape.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::fft {

namespace bc = batched_cg;

BatchedPcg::BatchedPcg(const Executor& exec, CsrMatrix a, std::vector<double> w, std::vector<double> shifts,
                       bool singular_at_zero, index_t block_systems, int aip_level, PlanePartition* plane,
                       index_t stride)
    : exec_(exec), plane_(plane), systems_(exec, std::move(a), std::move(w), std::move(shifts), stride),
      preconditioner_(exec, systems_, block_systems > 0 ? block_systems : block_systems_for(systems_.systems(), 8),
                      aip_level, plane ? plane->owned_rows() : systems_.rows()) {
  if (plane && plane->local_rows() != rows())
    throw Error("BatchedPcg: the 2D matrix has " + std::to_string(rows()) + " rows, the rank holds " +
                std::to_string(plane->local_rows()) + " 2D cells");
  const index_t S = this->stride(), n = batched_size(rows(), S);
  for (Vector* v : {&r_, &z_, &p_, &q_}) *v = Vector(exec, n);
  partials_ = Vector(exec, 3 * batched_partials_size(exec.backend(), rows(), S));
  state_ = Vector(exec, bc::slot_count * S);
  dots_ = Vector(exec, max_dot_pairs * S);
  // Whole-vector kernels (waxpby, copy) also pass over the entries beyond the systems, which nothing
  // reads: zero at first, so that they hold finite values; the dots beyond the systems stay zero, which
  // start() turns into stopped systems (batched_start sets every slot of the state).
  for (Vector* v : {&r_, &z_, &p_, &q_, &dots_}) fill(exec, 0.0, *v);
  if (singular_at_zero)
    while (singular_systems_ < systems() && systems_.host_shifts[singular_systems_] == 0) ++singular_systems_;
}

std::size_t BatchedPcg::device_bytes(Backend backend, index_t rows, index_t nnz, index_t stride) {
  const auto entries = [](std::size_t n) { return n * sizeof(double); };
  const std::size_t n = static_cast<std::size_t>(batched_size(rows, stride));
  // ShiftedSystems: A in CSR, diag(A), w and σ; r, z, p, q and the preconditioner's G r; the column
  // sums, the per-system scalars and dots.
  return amg::csr_device_bytes(rows, nnz) + entries(2 * static_cast<std::size_t>(rows) + stride) + entries(5 * n) +
         entries(3 * static_cast<std::size_t>(batched_partials_size(backend, rows, stride))) +
         entries(static_cast<std::size_t>(bc::slot_count + max_dot_pairs) * stride);
}

Vector BatchedPcg::partials(int k) {
  const index_t size = batched_partials_size(exec_.backend(), rows(), stride());
  return partials_.window(k * size, size);
}

void BatchedPcg::sum_over_ranks(index_t first, index_t count) {
  if (!plane_) return;
  Vector rows = dots_.window(first * stride(), count * stride());
  std::vector<double> host = rows.to_host();
  plane_->sum(host);
  rows.copy_from_host(host);
}

// Column dots over the owned rows of the first `active` systems (the others stale).
void BatchedPcg::queue_column_dots(std::initializer_list<DotPair> pairs, index_t first, index_t active) {
  const index_t S = stride(), owned = batched_size(owned_rows(), S);
  Vector scratch = partials_.window(0, batched_partials_size(exec_.backend(), owned_rows(), S));
  index_t row = first;
  for (const auto& [u, v] : pairs) {
    Vector out = dots_.window(row++ * S, S);
    std::optional<Vector> v_owned;  // not a default Vector: that would make an executor every call
    if (v) v_owned.emplace(v->window(0, owned));
    batched_dot(exec_, u->window(0, owned), v ? &*v_owned : nullptr, S, {0, active}, scratch, out);
  }
  sum_over_ranks(first, row - first);
}

void BatchedPcg::remove_mean(Vector& v) {
  if (singular_systems_ == 0) return;
  queue_column_dots({{&v, nullptr}}, 0, singular_systems_);
  const double rows = plane_ ? plane_->global_rows() : this->rows();
  batched_subtract_mean(exec_, dots_.window(0, stride()), rows, v, stride(), {0, singular_systems_});
}

// The entries beyond the systems start as stopped systems with b = 0 (their dots stay zero).
void BatchedPcg::start(const Vector& b, double tolerance) {
  const index_t S = stride();
  queue_column_dots({{&b, &b}, {&r_, &z_}, {&r_, &r_}}, 0, systems());
  batched_start(exec_, state_, dots_.window(0, 3 * S), tolerance, S);
}

// The dots' partial sums as the scalar kernels take them: the partials themselves on one rank (summed
// there in tile order), else summed into rows [first, first + count) of dots_ and over the ranks.
BatchedPcg::Sums BatchedPcg::reduce(std::initializer_list<Vector*> parts, index_t first, SystemRange range) {
  const index_t S = stride();
  Sums sums{plane_ ? 1 : row_tiles(exec_.backend(), rows()).count, {}};
  index_t row = first;
  for (Vector* p : parts) {
    if (!plane_) {
      sums.rows.push_back(p->window(0, p->size()));
      continue;
    }
    sums.rows.push_back(dots_.window(row++ * S, S));
    batched_column_sums(exec_, *p, rows(), S, range, sums.rows.back());
  }
  sum_over_ranks(first, row - first);
  return sums;
}

// One iteration of the systems of `range`: no host read on one rank.
void BatchedPcg::queue_iteration(Vector& x, SystemRange range) {
  const index_t S = stride(), owned = owned_rows();
  Vector pq = partials(0), rz = partials(1), rr = partials(2);
  if (plane_) {
    // All active systems in one message per neighbour, in flight while the tiles of inner rows run.
    const RowTiles tiles = row_tiles(exec_.backend(), rows());
    const index_t inner_tiles = plane_->inner_rows() / tiles.rows_per_tile;
    plane_->start_halo_update(p_, range);
    batched_shifted_spmv_dot(exec_, systems_.view(), p_, q_, S, range, owned, pq, {0, inner_tiles});
    plane_->finish_halo_update(p_, range);
    batched_shifted_spmv_dot(exec_, systems_.view(), p_, q_, S, range, owned, pq, {inner_tiles, tiles.count});
  } else {
    batched_shifted_spmv_dot(exec_, systems_.view(), p_, q_, S, range, owned, pq);
  }
  const Sums sigma = reduce({&pq}, 0, range);
  batched_finish_curvature(exec_, state_, sigma.rows[0], sigma.tiles, S, range);
  const index_t leading_end = std::max(range.begin, preconditioner_.leading_systems(range.end));
  batched_cg_update_jacobi(exec_, systems_.view(), state_.window(bc::alpha * S, S), p_, q_, x, r_, S, range,
                           leading_end, owned, rz, rr);
  preconditioner_bytes_ = 0;
  if (leading_end > range.begin) {
    const KernelCounters before = exec_.counters();
    preconditioner_.apply_leading(r_, z_, range);
    batched_dot_partials(exec_, r_, &z_, S, {range.begin, leading_end}, owned, rz);
    preconditioner_bytes_ = exec_.counters().since(before).total().bytes;
  }
  const Sums residual = reduce({&rz, &rr}, 1, range);
  batched_finish_residual(exec_, state_, residual.rows[0], residual.rows[1], residual.tiles, S, range);
  batched_direction_jacobi(exec_, systems_.view(), state_.window(bc::beta * S, S), z_, r_, p_, S, range,
                           leading_end);
}

const BatchedPcg::RecordedBatch* BatchedPcg::recorded_batch(const Vector& x, SystemRange active,
                                                            const std::function<void()>& batch) {
  const auto key =
      std::make_tuple(x.data(), active.begin, active.end, preconditioner_.leading(), preconditioner_.leading_blocks());
  RecordedBatch& recorded = batches_[key];
  if (recorded.graph) return &recorded;
  auto fresh = std::make_unique<KernelGraph>(exec_);
  if (!fresh->record(batch)) {
    batches_.erase(key);
    return nullptr;
  }
  recorded = {std::move(fresh), preconditioner_bytes_};
  return &recorded;
}

void BatchedPcg::free_other_configurations() {
  std::erase_if(batches_, [&](const auto& batch) {
    return std::get<3>(batch.first) != preconditioner_.leading() ||
           std::get<4>(batch.first) != preconditioner_.leading_blocks();
  });
  preconditioner_.free_unused_blocks();
}

int BatchedPcg::check_interval(const BatchedPcgOptions& options) const {
  if (plane_) return 1;
  return options.check_interval > 0 ? options.check_interval : default_check_interval(exec_.backend());
}

// The range from the first to the last running system. Systems are ordered by increasing shift: with
// Jacobi or AIP the low (slow) ones lead and the range shrinks from its end; with AMG on the low
// frequencies those stop first and it shrinks from its beginning.
namespace {
SystemRange active_systems(const std::vector<double>& state, index_t systems, index_t stride) {
  SystemRange active{0, systems};
  while (active.end > 0 && !bc::running(state.data(), stride, active.end - 1)) --active.end;
  while (active.begin < active.end && !bc::running(state.data(), stride, active.begin)) ++active.begin;
  return active;
}
}  // namespace

BatchedPcgResult BatchedPcg::solve(Vector& b, Vector& x, const BatchedPcgOptions& options, bool initial_guess) {
  const index_t S = stride(), systems = this->systems();
  const index_t n = batched_size(rows(), S);
  if (b.size() != n || x.size() != n)
    throw Error("BatchedPcg::solve: b has " + std::to_string(b.size()) + " and x " + std::to_string(x.size()) +
                " entries; " + std::to_string(n) + " (rows × stride) expected");
  if (options.check_interval < 0)
    throw Error("BatchedPcg::solve: check_interval is " + std::to_string(options.check_interval) +
                "; expected 0 (the backend's default) or a positive number of iterations");
  if (!initial_guess) fill(exec_, 0.0, x);
  remove_mean(b);
  remove_mean(x);
  if (plane_ && initial_guess) plane_->update_halo(x, {0, systems});
  batched_shifted_spmv(exec_, systems_.view(), x, q_, S, {0, systems});
  waxpby(exec_, 1.0, b, -1.0, q_, r_);
  preconditioner_.apply(r_, z_, systems);
  copy(exec_, z_, p_);
  start(b, options.tolerance);

  // Batches of `interval` iterations over a fixed range, the host reading the state after each. The
  // kernels take every scalar from executor memory, so a batch over the same range (and x) is the same
  // calls: recorded the first time, replayed ever after; a shorter last batch is launched. The first
  // batch runs over every system without a read before it: the systems that start below the
  // tolerance are frozen from the start.
  const int interval = check_interval(options);
  bool graphs = options.graphs && !plane_;  // halo updates and rank sums go through the host
  SystemRange active{0, systems};
  std::vector<double> state;
  int replayed = 0, queued = 0;
  std::vector<IterationSize> sizes;
  const KernelCounters iterations_before = exec_.counters();
  while (active.size() > 0 && queued < options.max_iterations) {
    const int count = std::min(interval, options.max_iterations - queued);
    const auto batch = [&] {
      for (int i = 0; i < count; ++i) queue_iteration(x, active);
    };
    const RecordedBatch* recorded = graphs && count == interval ? recorded_batch(x, active, batch) : nullptr;
    graphs = graphs && (recorded || count != interval);  // a batch that cannot be recorded: none can
    const KernelCounters before = exec_.counters();
    if (recorded && recorded->graph->replay()) {  // no replay with profiling on
      ++replayed;
      preconditioner_bytes_ = recorded->preconditioner_bytes;
    } else {
      batch();
    }
    add_iterations(sizes, {exec_.counters().since(before).total().bytes / count, count, active.size(), owned_rows(),
                           preconditioner_bytes_});
    queued += count;
    state = state_.to_host();
    active = active_systems(state, systems, S);
  }
  if (state.empty()) state = state_.to_host();  // no batch (max_iterations 0)
  BatchedPcgResult result{std::vector<int>(systems), std::vector<double>(systems), true, replayed, queued,
                          exec_.counters().since(iterations_before), std::move(sizes)};
  remove_mean(x);
  for (index_t s = 0; s < systems; ++s) {
    result.iterations[s] = static_cast<int>(bc::slot(state.data(), S, bc::iterations, s));
    result.relative_residual[s] = bc::slot(state.data(), S, bc::relative_residual, s);
    if (bc::slot(state.data(), S, bc::status, s) != static_cast<double>(cg::Status::residual_test))
      result.converged = false;
  }
  return result;
}

}  // namespace miniapp::fft
