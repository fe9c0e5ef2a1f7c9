// PeriodicFft on the GPU by cuFFT: one batched D2Z and one Z2D plan, made once, bound to the
// executor's stream, so the transforms queue behind the kernels with no host synchronisation.
#include "solvers/fft/cuda/cufft_transform.hpp"

#include <cufft.h>

namespace miniapp::fft::cuda {

namespace {

// Every cuFFT call is checked: file, line, call and cuFFT's status code.
void check_cufft(cufftResult status, const char* call, const char* file, int line) {
  if (status != CUFFT_SUCCESS)
    throw Error(std::string(file) + ":" + std::to_string(line) + ": cuFFT call " + call + " failed with status " +
                std::to_string(static_cast<int>(status)));
}
#define MINIAPP_CUFFT_CHECK(call) check_cufft((call), #call, __FILE__, __LINE__)

class CufftTransform final : public PeriodicFft {
 public:
  CufftTransform(const Executor& exec, index_t lines, index_t n)
      : exec_(exec), size_(static_cast<std::size_t>(lines) * n), modes_size_(static_cast<std::size_t>(lines) * (n + 2)) {
    int len = n;
    const int half = n / 2 + 1;
    try {
      MINIAPP_CUFFT_CHECK(cufftPlanMany(&forward_, 1, &len, nullptr, 1, len, nullptr, 1, half, CUFFT_D2Z, lines));
      MINIAPP_CUFFT_CHECK(cufftPlanMany(&backward_, 1, &len, nullptr, 1, half, nullptr, 1, len, CUFFT_Z2D, lines));
      MINIAPP_CUFFT_CHECK(cufftSetStream(forward_, static_cast<cudaStream_t>(exec.stream())));
      MINIAPP_CUFFT_CHECK(cufftSetStream(backward_, static_cast<cudaStream_t>(exec.stream())));
    } catch (...) {
      destroy();
      throw;
    }
  }
  ~CufftTransform() override { destroy(); }
  CufftTransform(const CufftTransform&) = delete;
  CufftTransform& operator=(const CufftTransform&) = delete;

  void forward(const Vector& real, Vector& modes) override {
    check(real, modes);
    MINIAPP_CUFFT_CHECK(cufftExecD2Z(forward_, const_cast<double*>(real.data()),
                                     reinterpret_cast<cufftDoubleComplex*>(modes.data())));
  }
  void backward(Vector& modes, Vector& real) override {
    check(real, modes);
    MINIAPP_CUFFT_CHECK(cufftExecZ2D(backward_, reinterpret_cast<cufftDoubleComplex*>(modes.data()), real.data()));
  }

 private:
  void check(const Vector& real, const Vector& modes) const {
    const Executor& r = real.executor();
    const Executor& m = modes.executor();
    if (r.backend() != Backend::cuda || m.backend() != Backend::cuda || r.device() != exec_.device() ||
        m.device() != exec_.device() || static_cast<std::size_t>(real.size()) != size_ ||
        static_cast<std::size_t>(modes.size()) != modes_size_)
      throw Error("periodic FFT (cuFFT): vectors on cuda:" + std::to_string(exec_.device()) + " of " +
                  std::to_string(size_) + " real values and " + std::to_string(modes_size_) + " mode doubles expected");
  }
  void destroy() noexcept {
    if (forward_ != 0) cufftDestroy(forward_);
    if (backward_ != 0) cufftDestroy(backward_);
    forward_ = backward_ = 0;
  }

  Executor exec_;
  std::size_t size_, modes_size_;
  cufftHandle forward_ = 0, backward_ = 0;
};

}  // namespace

std::unique_ptr<PeriodicFft> make_cufft_transform(const Executor& exec, index_t lines, index_t n) {
  return std::make_unique<CufftTransform>(exec, lines, n);
}

}  // namespace miniapp::fft::cuda
