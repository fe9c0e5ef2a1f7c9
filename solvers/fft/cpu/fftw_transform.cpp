// PeriodicFft on the host by FFTW.
#include "solvers/fft/cpu/fftw_transform.hpp"

#include <fftw3.h>

#include <vector>

namespace miniapp::fft::cpu {

namespace {

// Plans are made on scratch arrays with FFTW_UNALIGNED, so that they can be executed on any vectors
// (new-array execution requires the planned alignment otherwise).
class FftwTransform final : public PeriodicFft {
 public:
  FftwTransform(index_t lines, index_t n, bool measure)
      : size_(static_cast<std::size_t>(lines) * n),
        modes_size_(static_cast<std::size_t>(lines) * mode_stride(Backend::cpu, n)) {
    std::vector<double> real(size_);
    std::vector<fftw_complex> modes(modes_size_ / 2);
    const unsigned flags = (measure ? FFTW_MEASURE : FFTW_ESTIMATE) | FFTW_UNALIGNED;
    const int len = n, distance = mode_stride(Backend::cpu, n) / 2;  // complex modes between lines
    forward_ = fftw_plan_many_dft_r2c(1, &len, lines, real.data(), nullptr, 1, len, modes.data(), nullptr, 1,
                                      distance, flags);
    backward_ = fftw_plan_many_dft_c2r(1, &len, lines, modes.data(), nullptr, 1, distance, real.data(), nullptr, 1,
                                       len, flags);
    if (forward_ == nullptr || backward_ == nullptr) {
      destroy();
      throw Error("periodic FFT: FFTW could not plan " + std::to_string(lines) + " transforms of length " + std::to_string(n));
    }
  }
  ~FftwTransform() override { destroy(); }
  FftwTransform(const FftwTransform&) = delete;
  FftwTransform& operator=(const FftwTransform&) = delete;

  void forward(const Vector& real, Vector& modes) override {
    check(real, modes);
    // FFTW's r2c does not write its input; its signature is not const.
    fftw_execute_dft_r2c(forward_, const_cast<double*>(real.data()), reinterpret_cast<fftw_complex*>(modes.data()));
  }
  void backward(Vector& modes, Vector& real) override {
    check(real, modes);
    fftw_execute_dft_c2r(backward_, reinterpret_cast<fftw_complex*>(modes.data()), real.data());
  }

 private:
  void check(const Vector& real, const Vector& modes) const {
    if (real.executor().backend() != Backend::cpu || modes.executor().backend() != Backend::cpu ||
        static_cast<std::size_t>(real.size()) != size_ || static_cast<std::size_t>(modes.size()) != modes_size_)
      throw Error("periodic FFT (FFTW): host vectors of " + std::to_string(size_) + " real values and " +
                  std::to_string(modes_size_) + " mode doubles expected");
  }
  void destroy() {
    if (forward_ != nullptr) fftw_destroy_plan(forward_);
    if (backward_ != nullptr) fftw_destroy_plan(backward_);
    forward_ = backward_ = nullptr;
  }

  std::size_t size_, modes_size_;
  fftw_plan forward_ = nullptr, backward_ = nullptr;
};

}  // namespace

std::unique_ptr<PeriodicFft> make_fftw_transform(index_t lines, index_t n, bool measure) {
  return std::make_unique<FftwTransform>(lines, n, measure);
}

}  // namespace miniapp::fft::cpu
