// The transform of each backend behind PeriodicFft, counted like a kernel.
#include "solvers/fft/periodic_fft.hpp"

#include <cmath>

#include "operators/kernels/dispatch.hpp"
#include "solvers/fft/cpu/fftw_transform.hpp"
#include "solvers/fft/cuda/cufft_transform.hpp"

namespace miniapp::fft {

index_t largest_prime_factor(index_t n) {
  index_t largest = 1;
  for (index_t p = 2; p * p <= n; ++p)
    while (n % p == 0) largest = p, n /= p;
  return n > 1 ? n : largest;
}

std::string slow_length_note(index_t n) {
  const index_t factor = largest_prime_factor(n);
  if (factor <= largest_fast_prime) return "";
  const auto fast = [](index_t m) { return m > 0 && largest_prime_factor(m) <= largest_fast_prime; };
  index_t below = n - 2, above = n + 2;
  while (below > 0 && !fast(below)) below -= 2;
  while (!fast(above)) above += 2;
  return "Nper = " + std::to_string(n) + " has the prime factor " + std::to_string(factor) +
         ": its transforms take the FFT library's slower algorithm; " +
         (below > 0 ? std::to_string(below) + " or " : "") + std::to_string(above) + " layers would transform faster";
}
namespace {

// Adds each batched transform to the executor's kernel counters (and, with profiling on, its seconds),
// so that the cost model prices it: one call of kind copy per r2c or c2r, its bytes the real and the
// complex arrays read and written once. Copy is the calibrated kernel closest to a batched short FFT:
// one array streamed in, another of about the same size streamed out, no reduction; the butterflies
// of a line stay in registers or shared memory, so the traffic, not the flops, bounds it.
class CountedFft final : public PeriodicFft {
 public:
  CountedFft(const Executor& exec, std::unique_ptr<PeriodicFft> inner, index_t lines, index_t n)
      : exec_(exec), inner_(std::move(inner)),
        bytes_(8.0 * static_cast<double>(lines) * static_cast<double>(2 * n + 2)),
        flops_(2.5 * static_cast<double>(lines) * static_cast<double>(n) * std::log2(static_cast<double>(n))) {}

  void forward(const Vector& real, Vector& modes) override {
    count(detail::run_timed(exec_, [&] { inner_->forward(real, modes); }, [&] { inner_->forward(real, modes); }));
  }
  void backward(Vector& modes, Vector& real) override {
    count(detail::run_timed(exec_, [&] { inner_->backward(modes, real); }, [&] { inner_->backward(modes, real); }));
  }

 private:
  void count(double seconds) const { exec_.counters().add(KernelKind::copy, bytes_, flops_, seconds); }

  Executor exec_;
  std::unique_ptr<PeriodicFft> inner_;
  double bytes_, flops_;  // per transform
};

}  // namespace

std::unique_ptr<PeriodicFft> make_periodic_fft(const Executor& exec, index_t lines, index_t n, bool measure) {
  if (n < 2 || n % 2 != 0)
    throw Error("periodic FFT: length " + std::to_string(n) + "; the real-to-complex path needs an even length ≥ 2");
  std::unique_ptr<PeriodicFft> transform = exec.backend() == Backend::cuda ? cuda::make_cufft_transform(exec, lines, n)
                                                                           : cpu::make_fftw_transform(lines, n, measure);
  return std::make_unique<CountedFft>(exec, std::move(transform), lines, n);
}

std::size_t periodic_fft_work_bytes(const Executor& exec, index_t lines, index_t n) {
  return exec.backend() == Backend::cuda ? cuda::cufft_work_bytes(lines, n) : 0;
}

}  // namespace miniapp::fft
