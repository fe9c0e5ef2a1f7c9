// The transform of each backend behind PeriodicFft.
#include "solvers/fft/periodic_fft.hpp"

#include "solvers/fft/cpu/fftw_transform.hpp"
#include "solvers/fft/cuda/cufft_transform.hpp"

namespace miniapp::fft {

std::unique_ptr<PeriodicFft> make_periodic_fft(const Executor& exec, index_t lines, index_t n, bool measure) {
  if (n < 2 || n % 2 != 0)
    throw Error("periodic FFT: length " + std::to_string(n) + "; the real-to-complex path needs an even length ≥ 2");
  if (exec.backend() == Backend::cuda) return cuda::make_cufft_transform(exec, lines, n);
  return cpu::make_fftw_transform(lines, n, measure);
}

}  // namespace miniapp::fft
