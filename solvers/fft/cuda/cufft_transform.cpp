// PeriodicFft on the GPU by cuFFT: one batched D2Z and one Z2D plan, made once, bound to the
// executor's stream, so the transforms queue behind the kernels with no host synchronisation; their
// work area is one executor array, counted like every other.
#include "solvers/fft/cuda/cufft_transform.hpp"

#include <cufft.h>

#include <algorithm>

namespace miniapp::fft::cuda {

namespace {

// Every cuFFT call is checked: file, line, call and cuFFT's status code.
void check_cufft(cufftResult status, const char* call, const char* file, int line) {
  if (status != CUFFT_SUCCESS)
    throw Error(std::string(file) + ":" + std::to_string(line) + ": cuFFT call " + call + " failed with status " +
                std::to_string(static_cast<int>(status)));
}
#define MINIAPP_CUFFT_CHECK(call) check_cufft((call), #call, __FILE__, __LINE__)

// The batched D2Z and Z2D plans of `lines` transforms of length n, their modes mode_stride(cuda, n)
// doubles apart (cuFFT's advanced layout: the embeds only switch it on, a 1D transform's own size is
// unused), made with cuFFT's own work-area allocation off: `work_bytes` is the larger of the two
// plans' areas, which one array serves (the plans run one after the other on one stream).
struct Plans {
  cufftHandle forward = 0, backward = 0;
  std::size_t work_bytes = 0;

  Plans(index_t lines, index_t n) {
    int len = n, modes = n / 2 + 1;
    const int distance = mode_stride(Backend::cuda, n) / 2;
    std::size_t forward_bytes = 0, backward_bytes = 0;
    try {
      MINIAPP_CUFFT_CHECK(cufftCreate(&forward));
      MINIAPP_CUFFT_CHECK(cufftCreate(&backward));
      MINIAPP_CUFFT_CHECK(cufftSetAutoAllocation(forward, 0));
      MINIAPP_CUFFT_CHECK(cufftSetAutoAllocation(backward, 0));
      MINIAPP_CUFFT_CHECK(
          cufftMakePlanMany(forward, 1, &len, &len, 1, len, &modes, 1, distance, CUFFT_D2Z, lines, &forward_bytes));
      MINIAPP_CUFFT_CHECK(
          cufftMakePlanMany(backward, 1, &len, &modes, 1, distance, &len, 1, len, CUFFT_Z2D, lines, &backward_bytes));
    } catch (...) {
      destroy();
      throw;
    }
    work_bytes = std::max(forward_bytes, backward_bytes);
  }
  ~Plans() { destroy(); }
  Plans(const Plans&) = delete;
  Plans& operator=(const Plans&) = delete;

  // The work area as whole doubles, the executor's unit.
  index_t work_doubles() const { return static_cast<index_t>((work_bytes + sizeof(double) - 1) / sizeof(double)); }

 private:
  void destroy() noexcept {
    if (forward != 0) cufftDestroy(forward);
    if (backward != 0) cufftDestroy(backward);
    forward = backward = 0;
  }
};

class CufftTransform final : public PeriodicFft {
 public:
  CufftTransform(const Executor& exec, index_t lines, index_t n)
      : exec_(exec), size_(static_cast<std::size_t>(lines) * n),
        modes_size_(static_cast<std::size_t>(lines) * mode_stride(Backend::cuda, n)),
        plans_(lines, n), work_(exec, plans_.work_doubles()) {
    for (cufftHandle plan : {plans_.forward, plans_.backward}) {
      MINIAPP_CUFFT_CHECK(cufftSetWorkArea(plan, work_.data()));
      MINIAPP_CUFFT_CHECK(cufftSetStream(plan, static_cast<cudaStream_t>(exec.stream())));
    }
  }

  void forward(const Vector& real, Vector& modes) override {
    check(real, modes);
    MINIAPP_CUFFT_CHECK(cufftExecD2Z(plans_.forward, const_cast<double*>(real.data()),
                                     reinterpret_cast<cufftDoubleComplex*>(modes.data())));
  }
  void backward(Vector& modes, Vector& real) override {
    check(real, modes);
    MINIAPP_CUFFT_CHECK(
        cufftExecZ2D(plans_.backward, reinterpret_cast<cufftDoubleComplex*>(modes.data()), real.data()));
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

  Executor exec_;
  std::size_t size_, modes_size_;
  Plans plans_;
  Vector work_;
};

}  // namespace

std::unique_ptr<PeriodicFft> make_cufft_transform(const Executor& exec, index_t lines, index_t n) {
  return std::make_unique<CufftTransform>(exec, lines, n);
}

std::size_t cufft_work_bytes(index_t lines, index_t n) {
  return sizeof(double) * static_cast<std::size_t>(Plans(lines, n).work_doubles());
}

}  // namespace miniapp::fft::cuda
