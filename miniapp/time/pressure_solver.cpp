#include "miniapp/time/pressure_solver.hpp"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "operators/backend/cuda/device.hpp"

namespace miniapp::time {

PcgPressureSolver::PcgPressureSolver(const Executor& exec, const DeviceSell& minus_laplacian,
                                     std::unique_ptr<Preconditioner> preconditioner, const PcgOptions& options)
    : matrix_(minus_laplacian), preconditioner_(std::move(preconditioner)), options_(options),
      pcg_(exec, minus_laplacian.rows()) {
  options_.keep_recording = true;  // the matrix and the preconditioner stay the same for the solver's life
}

PcgResult PcgPressureSolver::solve(const Vector& rhs, Vector& pressure, long /*step*/) {
  return pcg_.solve(matrix_, *preconditioner_, rhs, pressure, options_);
}

void require_fft_backend(const Executor& exec) {
  if (exec.backend() == Backend::cuda && !cuda::built())
    throw Error("numerics.poisson = fft on " + exec.description() + ": this build has no CUDA FFT path; "
                "use numerics.backend = \"cpu\" or numerics.poisson = \"pcg\"");
}

FftPressureSolver::FftPressureSolver(const Executor& exec, const mesh::Mesh& mesh,
                                     const mesh::MeshGeometry& geometry, const CsrMatrix& laplacian,
                                     const Permutation& cell_order, const PcgOptions& options,
                                     const fft::FrequencyPreconditioning& preconditioning, std::ostream* log,
                                     const Ranks* ranks, StageProfile* profile)
    : options_{options.tolerance, options.max_iterations} {
  require_fft_backend(exec);
  fft::Extrusion extrusion;
  fft::PlaneOperator op;
  parallel::LocalNumbering planes;
  const auto split = [&] {
    // The split works in mesh order: L back from the operators' order (its inverse permutation).
    const CsrMatrix l = timed_part(profile, "L in mesh order", [&] {
      return permute_symmetric(laplacian, Permutation::from_new_to_old(cell_order.old_to_new));
    });
    extrusion = timed_part(profile, "extrusion", [&] { return fft::detect_extrusion(mesh, geometry); });
    StageProfile::Part part(profile, "plane operator");
    op = fft::split_extruded_operator(l, extrusion);
    // A rank's mesh is in the order of its numbering (operators' order = mesh order).
    if (ranks) planes = fft::plane_numbering(extrusion, ranks->cells);
  };
  if (ranks) {
    const parallel::Communicator& comm = *ranks->domain.communicator();
    comm.run_collectively(split);  // a mesh that fails on one rank stops every rank
    const index_t stride = fft::mode_stride(exec.backend(), extrusion.planes);
    plane_ = std::make_unique<fft::PlanePartition>(comm, exec, planes, stride, ranks->transport, &ranks->domain);
    op.singular = plane_->all(op.singular);  // an outlet on any rank makes k = 0 regular
  } else {
    split();
  }
  const index_t planes_per_line = extrusion.planes;
  const index_t lines = plane_ ? plane_->global_rows() : extrusion.plane_cells;
  fft::FftPoissonOptions fft_options;
  fft_options.pcg = options_;
  fft_options.preconditioning = preconditioning;
  const bool timed_choice = preconditioning.leading_blocks < 0;
  if (timed_choice) fft_options.preconditioning.leading_blocks = 0;  // Jacobi until the choice
  poisson_ = std::make_unique<fft::FftPoisson>(exec, std::move(extrusion), op, fft_options, &cell_order, plane_.get(),
                                               profile);
  if (timed_choice) choice_ = std::make_unique<FrequencyBlockChoice>(exec, *poisson_);
  if (log)
    *log << "FFT Poisson: Nper = " << planes_per_line << ", " << lines << " cells per plane"
         << (ranks ? " (whole periodic lines on each of " + std::to_string(ranks->domain.ranks()) + " ranks)" : "")
         << "; " << configuration() << "\n";
  if (const std::string note = fft::slow_length_note(planes_per_line); log && !note.empty())
    *log << "FFT Poisson: " << note << "\n";
}

namespace {
// The leading blocks' number, negative when they are AMG's (AIP's otherwise; 0: Jacobi everywhere).
constexpr const char* leading_blocks_choice = "fft_leading_blocks";
}  // namespace

std::string FftPressureSolver::configuration() const {
  return choice_ ? choice_->describe() : poisson_->configuration();
}

PressureSolver::Choices FftPressureSolver::timed_choices() const {
  if (choosing()) return {};
  const fft::FrequencyPreconditioner& m = poisson_->batched_pcg().preconditioner();
  return {{leading_blocks_choice, m.leading() == fft::LeadingPreconditioner::amg ? -m.leading_blocks()
                                                                                 : m.leading_blocks()}};
}

std::string FftPressureSolver::repeat_choices(const Choices& choices) {
  fft::FrequencyPreconditioner& m = poisson_->batched_pcg().preconditioner();
  for (const auto& [name, value] : choices) {
    if (name != leading_blocks_choice || Choices{{name, value}} == timed_choices()) continue;
    const std::string before = m.describe();
    const int blocks = static_cast<int>(value);
    const fft::LeadingPreconditioner own = poisson_->options().preconditioning.leading;
    const auto kind = blocks < 0 ? fft::LeadingPreconditioner::amg : blocks > 0 ? fft::LeadingPreconditioner::aip : own;
    if (choice_ && kind == own) {
      choice_->repeat(std::abs(blocks));
      choice_told_ = true;  // told by the message returned
      return "FFT Poisson preconditioner " + m.describe();
    }
    choice_.reset();  // another kind than this run's (a changed case): kept as given, never timed
    m.use_leading_blocks(kind, std::abs(blocks));
    return "FFT Poisson preconditioner " + m.describe() + " instead of " + before;
  }
  return "";
}

std::string FftPressureSolver::new_choice() {
  if (!choice_ || !choice_->chosen() || choice_told_) return "";
  choice_told_ = true;
  return "FFT Poisson preconditioner " + choice_->describe();
}

PcgResult FftPressureSolver::solve(const Vector& rhs, Vector& pressure, long step) {
  const fft::FftPoissonResult r = choice_ ? choice_->solve(rhs, pressure, step) : poisson_->solve(rhs, pressure, true);
  const std::vector<int> per_frequency = fft::iterations_per_frequency(r.frequencies);
  frequency_iterations_.resize(per_frequency.size(), 0);
  for (std::size_t k = 0; k < per_frequency.size(); ++k) frequency_iterations_[k] += per_frequency[k];
  ++solves_;
  PcgResult result;
  result.iterations = r.max_iterations;
  const auto& residuals = r.frequencies.relative_residual;
  const auto worst = std::max_element(residuals.begin(), residuals.end());
  result.relative_residual = worst == residuals.end() ? 0.0 : *worst;
  result.converged = r.converged;
  result.replayed_batches = r.frequencies.replayed_batches;
  result.queued_iterations = r.frequencies.queued_iterations;
  result.iteration_kernels = r.frequencies.iteration_kernels;
  result.iteration_sizes = r.frequencies.iteration_sizes;
  if (!r.converged) {
    std::ostringstream msg;
    msg << "FFT Poisson: frequency system " << (worst - residuals.begin()) << " stopped at relative residual "
        << result.relative_residual << " after " << r.max_iterations << " iterations (tolerance "
        << options_.tolerance << ")";
    result.warning = msg.str();
  }
  return result;
}

void FftPressureSolver::print_report(std::ostream& out) const {
  if (solves_ == 0) return;
  out << "FFT Poisson iterations per solve by frequency k = 0.." << frequency_iterations_.size() - 1 << ":"
      << std::fixed << std::setprecision(1);
  for (long long total : frequency_iterations_) out << " " << static_cast<double>(total) / static_cast<double>(solves_);
  out << std::defaultfloat << "\n  (" << configuration() << ")\n";
}

}  // namespace miniapp::time
