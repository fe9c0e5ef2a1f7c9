// FFT diagonalisation along the periodic z of an extruded mesh and the batched frequency solves.
#include "solvers/fft/fft_poisson.hpp"

#include <fftw3.h>

#include <algorithm>

namespace miniapp::fft {

namespace {

// Frequency of system s: 0, then 1, 1, 2, 2, ..., Nper/2 − 1, Nper/2 − 1, then Nper/2.
index_t frequency_of(index_t s) { return (s + 1) / 2; }

std::vector<double> system_shifts(index_t planes) {
  std::vector<double> shifts;
  for (index_t s = 0; s < planes; ++s) shifts.push_back(-periodic_eigenvalue(frequency_of(s), planes));
  return shifts;
}

CsrMatrix negated(CsrMatrix a) {
  for (double& v : a.val) v = -v;
  return a;
}

}  // namespace

FftPoisson::FftPoisson(Extrusion extrusion, const PlaneOperator& op, const FftPoissonOptions& options)
    : extrusion_(std::move(extrusion)), options_(options) {
  const index_t n = extrusion_.planes, cells = extrusion_.plane_cells, half = n / 2 + 1;
  if (n < 2 || n % 2 != 0) throw Error("FftPoisson: Nper = " + std::to_string(n) + "; an even number ≥ 2 is needed");
  pcg_ = std::make_unique<BatchedPcg>(negated(op.in_plane), op.z_coupling, system_shifts(n), op.singular);
  const std::size_t size = static_cast<std::size_t>(cells) * n;
  real_.assign(size, 0.0);
  modes_.assign(static_cast<std::size_t>(cells) * half, 0.0);
  rhs_.assign(size, 0.0);
  solution_.assign(size, 0.0);
  const unsigned flags = options_.measure ? FFTW_MEASURE : FFTW_ESTIMATE;
  auto* complex = reinterpret_cast<fftw_complex*>(modes_.data());
  // One transform of length Nper per 2D cell, contiguous: the periodic index is the fastest.
  forward_ = fftw_plan_many_dft_r2c(1, &n, cells, real_.data(), nullptr, 1, n, complex, nullptr, 1, half, flags);
  backward_ = fftw_plan_many_dft_c2r(1, &n, cells, complex, nullptr, 1, half, real_.data(), nullptr, 1, n, flags);
  if (forward_ == nullptr || backward_ == nullptr)
    throw Error("FftPoisson: FFTW could not plan " + std::to_string(cells) + " transforms of length " + std::to_string(n));
}

FftPoisson::~FftPoisson() {
  if (forward_ != nullptr) fftw_destroy_plan(static_cast<fftw_plan>(forward_));
  if (backward_ != nullptr) fftw_destroy_plan(static_cast<fftw_plan>(backward_));
}

// Modes (c, k) to the interleaved right-hand sides [c · Nper + s].
void FftPoisson::to_systems(std::vector<double>& batched) const {
  const index_t n = extrusion_.planes, half = n / 2 + 1;
  for (index_t c = 0; c < extrusion_.plane_cells; ++c) {
    const std::complex<double>* m = &modes_[static_cast<std::size_t>(c) * half];
    double* out = &batched[static_cast<std::size_t>(c) * n];
    out[0] = m[0].real();
    for (index_t k = 1; k < n / 2; ++k) out[2 * k - 1] = m[k].real(), out[2 * k] = m[k].imag();
    out[n - 1] = m[n / 2].real();
  }
}

void FftPoisson::from_systems(const std::vector<double>& batched) {
  const index_t n = extrusion_.planes, half = n / 2 + 1;
  for (index_t c = 0; c < extrusion_.plane_cells; ++c) {
    std::complex<double>* m = &modes_[static_cast<std::size_t>(c) * half];
    const double* in = &batched[static_cast<std::size_t>(c) * n];
    m[0] = in[0];
    for (index_t k = 1; k < n / 2; ++k) m[k] = {in[2 * k - 1], in[2 * k]};
    m[n / 2] = in[n - 1];
  }
}

FftPoissonResult FftPoisson::solve(const std::vector<double>& b, std::vector<double>& p) {
  const std::size_t cells = extrusion_.cell_3d.size();
  if (b.size() != cells)
    throw Error("FftPoisson::solve: b has " + std::to_string(b.size()) + " entries for " + std::to_string(cells) + " cells");
  for (std::size_t i = 0; i < cells; ++i) real_[i] = b[extrusion_.cell_3d[i]];
  fftw_execute(static_cast<fftw_plan>(forward_));
  to_systems(rhs_);
  FftPoissonResult result;
  result.frequencies = pcg_->solve(rhs_, solution_, options_.pcg);
  result.converged = result.frequencies.converged;
  result.max_iterations = *std::max_element(result.frequencies.iterations.begin(), result.frequencies.iterations.end());
  from_systems(solution_);
  fftw_execute(static_cast<fftw_plan>(backward_));  // c2r overwrites modes_: it is rebuilt every solve
  p.resize(cells);
  const double scale = 1.0 / extrusion_.planes;
  for (std::size_t i = 0; i < cells; ++i) p[extrusion_.cell_3d[i]] = real_[i] * scale;
  return result;
}

}  // namespace miniapp::fft
