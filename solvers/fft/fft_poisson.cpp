// FFT diagonalisation along the periodic z of an extruded mesh and the batched frequency solves.
#include "solvers/fft/fft_poisson.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "operators/backend/synchronized_seconds.hpp"
#include "operators/kernels/gather.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "parallel/block_halo_exchange.hpp"

namespace miniapp::fft {

namespace {

// System s of the DFT's complex layout is frequency s / 2: shift −λ_{s/2} ≥ 0, increasing with s.
std::vector<double> system_shifts(index_t planes) {
  std::vector<double> shifts;
  for (index_t s = 0; s < planes + 2; ++s) shifts.push_back(-periodic_eigenvalue(s / 2, planes));
  return shifts;
}

// Position i = c · Nper + j of the 1D-block order → index of that cell in the caller's vectors, for
// the first `lines` 2D cells.
std::vector<index_t> block_order(const Extrusion& e, const Permutation* cell_order, index_t lines) {
  std::vector<index_t> index(static_cast<std::size_t>(lines) * e.planes);
  const auto size = static_cast<std::ptrdiff_t>(index.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < size; ++i) index[i] = cell_order ? cell_order->old_to_new[e.cell_3d[i]] : e.cell_3d[i];
  return index;
}

}  // namespace

std::vector<int> iterations_per_frequency(const BatchedPcgResult& systems) {
  std::vector<int> out;
  for (std::size_t s = 0; s + 1 < systems.iterations.size(); s += 2)
    out.push_back(std::max(systems.iterations[s], systems.iterations[s + 1]));
  return out;
}

FftPoisson::FftPoisson(const Executor& exec, Extrusion extrusion, const PlaneOperator& op,
                       const FftPoissonOptions& options, const Permutation* cell_order, PlanePartition* plane,
                       StageProfile* profile)
    : exec_(exec), extrusion_(std::move(extrusion)), options_(options), plane_(plane),
      owned_lines_(plane ? plane->owned_rows() : extrusion_.plane_cells) {
  const index_t n = extrusion_.planes, cells = extrusion_.plane_cells, stride = mode_stride(exec.backend(), n);
  if (n < 2 || n % 2 != 0) throw Error("FftPoisson: Nper = " + std::to_string(n) + "; an even number ≥ 2 is needed");
  if (cell_order && cell_order->size() != static_cast<index_t>(extrusion_.cell_3d.size()))
    throw Error("FftPoisson: the cell order has " + std::to_string(cell_order->size()) + " entries for " +
                std::to_string(extrusion_.cell_3d.size()) + " cells");
  const FrequencyPreconditioning& pre = options_.preconditioning;
  {
    StageProfile::Part part(profile, "frequency systems");
    pcg_ = std::make_unique<BatchedPcg>(exec, negated(op.in_plane), op.z_coupling, system_shifts(n), op.singular,
                                        block_systems_for(n + 2, pre.blocks), pre.aip_level, plane, stride);
  }
  {
    StageProfile::Part part(profile, "transforms");
    transform_ = make_periodic_fft(exec, owned_lines_, n, options_.measure);
    order_ = Array<index_t>::from_host(exec, block_order(extrusion_, cell_order, owned_lines_));
    real_ = Vector(exec, batched_size(owned_lines_, n));
    rhs_ = Vector(exec, batched_size(cells, stride));
    solution_ = Vector(exec, batched_size(cells, stride));
    // The halo lines' rows are never transformed: zero, so that the (unused) halo rows stay finite.
    fill(exec, 0.0, rhs_);
    fill(exec, 0.0, solution_);
  }
  pcg_->preconditioner().set_amg_options(pre.amg);
  if (pre.leading_blocks >= 0) {
    StageProfile::Part part(profile, "low-frequency blocks");
    pcg_->preconditioner().use_leading_blocks(pre.leading, pre.leading_blocks);
    configuration_ = pcg_->preconditioner().describe() + "; set by the options";
  } else {
    tune_preconditioner(profile);
  }
}

std::size_t FftPoisson::device_bytes(const Executor& exec, index_t lines, index_t owned_lines, index_t planes,
                                     index_t plane_nnz, index_t send_lines) {
  const std::size_t owned = static_cast<std::size_t>(batched_size(owned_lines, planes));
  const index_t stride = mode_stride(exec.backend(), planes);
  const std::size_t modes = static_cast<std::size_t>(batched_size(lines, stride));
  // The 1D-block order and the real lines (owned), the right-hand side's and solution's modes.
  const std::size_t vectors = BatchedPcg::device_bytes(exec.backend(), lines, plane_nnz, stride) +
                              owned * (sizeof(index_t) + sizeof(double)) + 2 * modes * sizeof(double);
  // The PlanePartition's exchange of the frequency vectors' halo lines (none on one rank).
  return vectors + parallel::BlockHaloExchange::device_bytes(send_lines, lines - owned_lines, stride) +
         periodic_fft_work_bytes(exec, owned_lines, planes);
}

std::string FftPoisson::try_leading_blocks(int blocks) {
  FrequencyPreconditioner& m = pcg_->preconditioner();
  const LeadingPreconditioner kind = m.leading();
  const int before = m.leading_blocks();
  std::string unavailable;
  try {
    m.use_leading_blocks(options_.preconditioning.leading, blocks);
  } catch (const Error& e) {  // e.g. a 2D mesh too small for the AIP pattern: not a candidate
    unavailable = e.what();
  }
  if (plane_ && !plane_->all(unavailable.empty()) && unavailable.empty()) {
    unavailable = "on another rank";
    m.use_leading_blocks(kind, before);  // built before: cannot fail
  }
  return unavailable;
}

double FftPoisson::slowest_rank(double seconds) const { return plane_ ? plane_->max(seconds) : seconds; }

// Times solves of a fixed random right-hand side (every frequency present) per configuration, in rhs_
// and solution_ (free at set-up), after one short untimed solve that warms caches and kernels. The
// cost of a configuration is the faster of two solves: a machine shared with other work adds delays,
// never removes them.
void FftPoisson::tune_preconditioner(StageProfile* profile) {
  std::vector<double> host(static_cast<std::size_t>(rhs_.size()));
  timed_part(profile, "timed solves", [&] {
    std::mt19937 engine(2024);
    std::uniform_real_distribution<double> value(-1, 1);
    for (double& v : host) v = value(engine);
  });
  FrequencyPreconditioner& m = pcg_->preconditioner();
  const LeadingPreconditioner leading = options_.preconditioning.leading;
  const char* kind = leading == LeadingPreconditioner::amg ? "AMG" : "AIP";
  std::ostringstream costs;
  const auto timed_solve = [&](const BatchedPcgOptions& options) {
    StageProfile::Part part(profile, "timed solves");
    rhs_.copy_from_host(host);  // the solve projects b in place
    BatchedPcgResult r;
    const double seconds =
        slowest_rank(synchronized_seconds(exec_, [&] { r = pcg_->solve(rhs_, solution_, options); }));
    costs << (costs.tellp() > 0 ? ", " : "") << m.leading_blocks() << " " << kind << ": " << 1e3 * seconds << " ms ("
          << *std::max_element(r.iterations.begin(), r.iterations.end()) << " it)";
    return seconds;
  };
  timed_solve({options_.pcg.tolerance, std::min(options_.pcg.max_iterations, 5)});
  costs.str("");
  const auto cost = [&](int blocks) {
    const std::string unavailable = timed_part(profile, "low-frequency blocks", [&] { return try_leading_blocks(blocks); });
    if (!unavailable.empty()) {
      costs << (costs.tellp() > 0 ? ", " : "") << blocks << " " << kind << ": unavailable (" << unavailable << ")";
      return std::numeric_limits<double>::infinity();
    }
    const double first = timed_solve(options_.pcg);
    return std::min(first, timed_solve(options_.pcg));
  };
  const int best = choose_aip_blocks(m.blocks(), cost);
  StageProfile::Part part(profile, "low-frequency blocks");
  m.use_leading_blocks(leading, best);
  pcg_->free_other_configurations();
  configuration_ = m.describe() + "; chosen by measured solve time (" + costs.str() + ")";
}

FftPoissonResult FftPoisson::solve(const Vector& b, Vector& p, bool warm_start) {
  const index_t owned_modes = batched_size(owned_lines_, pcg_->stride());
  Vector rhs_owned = rhs_.window(0, owned_modes), solution_owned = solution_.window(0, owned_modes);
  gather(exec_, order_, b, real_);
  transform_->forward(real_, rhs_owned);
  if (warm_start) {
    gather(exec_, order_, p, real_);
    transform_->forward(real_, solution_owned);
  }
  FftPoissonResult result;
  result.frequencies = pcg_->solve(rhs_, solution_, options_.pcg, warm_start);
  result.converged = result.frequencies.converged;
  result.max_iterations = *std::max_element(result.frequencies.iterations.begin(), result.frequencies.iterations.end());
  transform_->backward(solution_owned, real_);
  axpby(exec_, 1.0 / extrusion_.planes, real_, 0.0, real_);  // elementwise, so in place is safe
  scatter(exec_, order_, real_, p);
  return result;
}

}  // namespace miniapp::fft
