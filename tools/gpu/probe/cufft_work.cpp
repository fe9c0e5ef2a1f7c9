// cuFFT's work area for the FFT path's batched D2Z and Z2D plans, as the solver makes and sizes them
// (fft::cuda::cufft_work_bytes: its layout, its auto-allocation off, one area for both plans): per
// length n and batch, the real data's size and the work area in MB. Target `cufft_work` (built with
// -DMINIAPP_TOOLS=ON and CUDA); run on a GPU machine by tools/gpu/memory.sh.
#include <cstdio>

#include "core/error.hpp"
#include "solvers/fft/cuda/cufft_transform.hpp"

int main() {
  const int lengths[] = {8, 10, 14, 22, 26, 32, 34, 38, 64, 96, 128, 192, 194, 256, 384, 502, 512};
  const int batches[] = {1000, 4096, 16384, 65536, 147456};
  std::printf("n lines data_MB work_MB\n");
  for (int n : lengths)
    for (int lines : batches) {
      try {
        const std::size_t work = miniapp::fft::cuda::cufft_work_bytes(lines, n);
        std::printf("%d %d %.3f %.3f\n", n, lines, 8e-6 * lines * n, 1e-6 * static_cast<double>(work));
      } catch (const miniapp::Error& e) {
        std::printf("%d %d plan failed: %s\n", n, lines, e.what());
      }
    }
}
