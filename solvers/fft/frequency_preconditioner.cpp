// Per-block preconditioners of the frequency systems (AIP for the low frequencies, Jacobi for the
// others) and the greedy choice between them.
#include "solvers/fft/frequency_preconditioner.hpp"

#include <algorithm>
#include <sstream>

#include "solvers/aip_factor.hpp"
#include "solvers/distributed_pcg.hpp"

namespace miniapp::fft {

namespace {

// diag(A), after checking that A is square with one w per row and diag(A) + σ_s w > 0 for every s.
std::vector<double> checked_diagonal(const CsrMatrix& a, const std::vector<double>& w, const std::vector<double>& shifts) {
  if (a.rows != a.cols || w.size() != static_cast<std::size_t>(a.rows))
    throw Error("FFT Poisson: the 2D matrix is " + std::to_string(a.rows) + " × " + std::to_string(a.cols) +
                " and w has " + std::to_string(w.size()) + " entries; a square matrix and one w per row are needed");
  std::vector<double> d(static_cast<std::size_t>(a.rows), 0.0);
  for (index_t c = 0; c < a.rows; ++c) {
    for (index_t i = a.row_ptr[c]; i < a.row_ptr[c + 1]; ++i)
      if (a.col[i] == c) d[c] = a.val[i];
    for (std::size_t s = 0; s < shifts.size(); ++s)
      if (!(d[c] + shifts[s] * w[c] > 0))
        throw Error("FFT Poisson: row " + std::to_string(c) + " of frequency system " + std::to_string(s) +
                    " has diagonal " + std::to_string(d[c] + shifts[s] * w[c]) + "; a positive one is needed");
  }
  return d;
}

}  // namespace

CsrMatrix shifted_matrix(CsrMatrix a, const std::vector<double>& w, double sigma) {
  for (index_t c = 0; c < a.rows; ++c)
    for (index_t i = a.row_ptr[c]; i < a.row_ptr[c + 1]; ++i)
      if (a.col[i] == c) a.val[i] += sigma * w[c];
  return a;
}

ShiftedSystems::ShiftedSystems(const Executor& exec, CsrMatrix a_host, std::vector<double> w_host,
                               std::vector<double> shifts_host, index_t stride)
    : host_a(std::move(a_host)), host_w(std::move(w_host)), host_shifts(std::move(shifts_host)), a(exec, host_a),
      diagonal(Vector::from_host(exec, checked_diagonal(host_a, host_w, host_shifts))),
      w(Vector::from_host(exec, host_w)), stride_(stride == 0 ? systems() : stride) {
  if (stride_ < systems())
    throw Error("FFT Poisson: a row stride of " + std::to_string(stride_) + " for " + std::to_string(systems()) +
                " systems; at least one entry per system is needed");
  std::vector<double> per_entry = host_shifts;
  per_entry.resize(static_cast<std::size_t>(stride_), host_shifts.empty() ? 0.0 : host_shifts.back());
  shifts = Vector::from_host(exec, per_entry);
}

index_t block_systems_for(index_t systems, int blocks) {
  const index_t per = (systems + blocks - 1) / std::max(blocks, 1);
  return std::max<index_t>(4, per + per % 2);
}

struct FrequencyPreconditioner::Factor {
  DeviceCsr g, gt;
};

FrequencyPreconditioner::FrequencyPreconditioner(const Executor& exec, const ShiftedSystems& systems,
                                                 index_t block_systems, int aip_level, index_t owned_rows)
    : exec_(exec), systems_(systems), block_systems_(block_systems), owned_rows_(owned_rows), level_(aip_level),
      tmp_(exec, batched_size(systems.rows(), systems.stride())) {
  if (block_systems_ < 2 || block_systems_ % 2 != 0)
    throw Error("FFT Poisson: " + std::to_string(block_systems_) + " systems per preconditioner block; an even number ≥ 2 is needed");
  factors_.resize(static_cast<std::size_t>(blocks()));
  amg_.resize(static_cast<std::size_t>(blocks()));
  factor_bytes_.resize(factors_.size());
  amg_bytes_.resize(amg_.size());
}

FrequencyPreconditioner::~FrequencyPreconditioner() = default;

int FrequencyPreconditioner::blocks() const {
  return static_cast<int>((systems_.systems() + block_systems_ - 1) / block_systems_);
}

SystemRange FrequencyPreconditioner::block_range(int b) const {
  return {b * block_systems_, std::min<index_t>((b + 1) * block_systems_, systems_.systems())};
}

void FrequencyPreconditioner::build_aip_block(int b) {
  const SystemRange range = block_range(b);
  double sigma = 0;
  for (index_t s = range.begin; s < range.end; ++s) sigma += systems_.host_shifts[s] / static_cast<double>(range.size());
  const CsrMatrix a = owned_rows_ < systems_.rows() ? block_of_owned_rows(systems_.host_a, owned_rows_)
                                                    : systems_.host_a;
  const CsrMatrix g = aip_factor(shifted_matrix(a, systems_.host_w, sigma), level_);
  const std::size_t before = exec_.bytes_allocated();
  factors_[b] = std::make_unique<Factor>(Factor{DeviceCsr(exec_, g), DeviceCsr(exec_, transpose(g))});
  factor_bytes_[b] = exec_.bytes_allocated() - before;
}

// One hierarchy for the block's systems (one per frequency moved more bytes for the same iterations).
void FrequencyPreconditioner::build_amg_block(int b) {
  const std::size_t before = exec_.bytes_allocated();
  amg_[b] = std::make_unique<FrequencyAmg>(exec_, systems_, block_range(b), owned_rows_, amg_options_);
  amg_bytes_[b] = exec_.bytes_allocated() - before;
  if (amg_work_.size() == 0) amg_work_ = Vector(exec_, tmp_.size());
}

void FrequencyPreconditioner::use_leading_blocks(LeadingPreconditioner kind, int m) {
  if (m < 0 || m > blocks())
    throw Error("FFT Poisson: " + std::to_string(m) + " low-frequency blocks requested; the frequency systems form " +
                std::to_string(blocks()) + " blocks");
  for (int b = 0; b < m; ++b) {
    if (kind == LeadingPreconditioner::aip && !factors_[b]) build_aip_block(b);
    if (kind == LeadingPreconditioner::amg && !amg_[b]) build_amg_block(b);
  }
  leading_ = kind;
  leading_blocks_ = m;
}

void FrequencyPreconditioner::free_unused_blocks() {
  for (int b = 0; b < blocks(); ++b) {
    const bool used = b < leading_blocks_;
    if (!used || leading_ != LeadingPreconditioner::aip) factors_[b].reset();
    if (!used || leading_ != LeadingPreconditioner::amg) amg_[b].reset();
  }
  if (leading_ != LeadingPreconditioner::amg || leading_blocks_ == 0) amg_work_ = Vector();
}

std::size_t FrequencyPreconditioner::leading_bytes() const {
  std::size_t bytes = sizeof(double) * static_cast<std::size_t>(amg_work_.size());
  for (std::size_t b = 0; b < factors_.size(); ++b) {
    if (factors_[b]) bytes += factor_bytes_[b];
    if (amg_[b]) bytes += amg_bytes_[b];
  }
  return bytes;
}

void FrequencyPreconditioner::set_amg_options(const amg::AmgOptions& options) {
  for (const auto& block : amg_)
    if (block) throw Error("FFT Poisson: the AMG options are set before the first AMG block is built");
  amg_options_ = options;
}

index_t FrequencyPreconditioner::leading_systems(index_t active) const {
  return std::min<index_t>(leading_blocks_ * block_systems_, active);
}

void FrequencyPreconditioner::apply_leading(const Vector& r, Vector& z, SystemRange active) const {
  const index_t S = systems_.stride();
  const SystemRange leading = intersection(active, {0, leading_systems(active.end)});
  for (int b = 0; b * block_systems_ < leading.end; ++b) {
    const SystemRange range = intersection(block_range(b), leading);
    if (range.size() == 0) continue;
    if (leading_ == LeadingPreconditioner::amg) {
      amg_[b]->apply(r, z, tmp_, amg_work_, range);
      continue;
    }
    batched_spmv(exec_, factors_[b]->g, r, tmp_, S, range);
    batched_spmv(exec_, factors_[b]->gt, tmp_, z, S, range);
  }
}

void FrequencyPreconditioner::apply(const Vector& r, Vector& z, index_t active) const {
  apply_leading(r, z, {0, active});
  const index_t leading_end = leading_systems(active);
  if (leading_end < active) batched_jacobi(exec_, systems_.view(), r, z, systems_.stride(), {leading_end, active});
}

// System s is the real (even s) or imaginary part of frequency k = s / 2.
std::string FrequencyPreconditioner::describe() const {
  const index_t S = systems_.systems(), leading_end = std::min<index_t>(leading_blocks_ * block_systems_, S);
  std::ostringstream out;
  if (leading_end > 0) {
    if (leading_ == LeadingPreconditioner::aip) out << "AIP-" << level_;
    else out << "AMG (" << amg_[0]->level_rows().size() << " levels)";
    out << " on k = 0.." << (leading_end - 1) / 2 << " (" << leading_blocks_ << " block"
        << (leading_blocks_ > 1 ? "s" : "") << ")" << (leading_end < S ? ", " : "");
  }
  if (leading_end < S)
    out << "Jacobi on k = " << leading_end / 2 << ".." << (S - 1) / 2 << " (" << blocks() - leading_blocks_ << " block"
        << (blocks() - leading_blocks_ > 1 ? "s" : "") << ")";
  out << "; " << block_systems_ << " systems per block";
  return out.str();
}

int choose_aip_blocks(int blocks, const std::function<double(int)>& cost, double min_gain) {
  int best = 0;
  double best_cost = cost(0);
  for (int m = 1; m <= blocks; ++m) {
    const double c = cost(m);
    if (!(c < (1 - min_gain) * best_cost)) break;
    best = m;
    best_cost = c;
  }
  return best;
}

}  // namespace miniapp::fft
