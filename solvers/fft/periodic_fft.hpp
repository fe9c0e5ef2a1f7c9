#pragma once
#include <memory>

#include "operators/backend/array.hpp"

namespace miniapp::fft {

// Batched real DFT along the periodic lines of an extruded mesh (thesis eq. 4.31): `lines` transforms
// of even length n. Line c of the real array is [c · n, (c + 1) · n) (1D-block order, periodic index
// fastest); its n/2 + 1 complex modes are the doubles [c · (n + 2), (c + 1) · (n + 2)) as (Re, Im)
// pairs. Both arrays live on the executor: FFTW on the CPU, cuFFT on CUDA; the plans are made once.
// Each transform adds one call of kind copy to the executor's kernel counters (periodic_fft.cpp says why).
// Unnormalised: backward(forward(x)) = n x.
class PeriodicFft {
 public:
  virtual ~PeriodicFft() = default;
  virtual void forward(const Vector& real, Vector& modes) = 0;
  // Overwrites `modes` (the complex-to-real transforms of both libraries destroy their input).
  virtual void backward(Vector& modes, Vector& real) = 0;
};

// The executor's transform. `measure`: let FFTW time candidate plans (slower set-up; ignored by cuFFT).
// Throws miniapp::Error when n is odd or a plan cannot be made.
std::unique_ptr<PeriodicFft> make_periodic_fft(const Executor& exec, index_t lines, index_t n, bool measure);

// Executor bytes that transform holds beside the caller's arrays: cuFFT's work area, shared by its two
// plans (none on the CPU, where FFTW keeps its own).
std::size_t periodic_fft_work_bytes(const Executor& exec, index_t lines, index_t n);

}  // namespace miniapp::fft
