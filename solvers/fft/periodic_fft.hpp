#pragma once
#include <memory>
#include <string>

#include "operators/backend/array.hpp"

namespace miniapp::fft {

// Doubles per line of the modes' layout on a backend: the n + 2 of n/2 + 1 complex modes, on CUDA
// rounded up to a multiple of 16 so that every line starts on a 128-byte boundary. There the batched
// kernels that sum over lines give each warp 32 consecutive systems of a line, whose loads and stores
// straddle 128-byte lines more often where the lines do not start on one; on the CPU the caches'
// prefetch would fetch the unused entries with each line (docs/fft-poisson.md measures both).
inline index_t mode_stride(Backend backend, index_t n) {
  return backend == Backend::cuda ? (n + 2 + 15) / 16 * 16 : n + 2;
}

// FFT libraries transform lengths whose prime factors are small with their fast algorithms and fall
// back to a slower one (cuFFT's needs a work area the size of the data) from a factor of 17 up.
inline constexpr index_t largest_fast_prime = 13;
index_t largest_prime_factor(index_t n);
// For a length n with a prime factor above largest_fast_prime, a note naming it and the nearest even
// lengths below and above n without one; "" otherwise.
std::string slow_length_note(index_t n);

// Batched real DFT along the periodic lines of an extruded mesh (thesis eq. 4.31): `lines` transforms
// of even length n. Line c of the real array is [c · n, (c + 1) · n) (1D-block order, periodic index
// fastest); its n/2 + 1 complex modes are the doubles [c · m, c · m + n + 2) as (Re, Im) pairs, with
// m = mode_stride(the executor's backend, n); the doubles from n + 2 to m of each line are neither
// read nor written. Both arrays live on the executor: FFTW on the CPU, cuFFT on CUDA; the plans are
// made once.
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
