// cuFFT's work areas for the FFT path's batched D2Z and Z2D plans (solvers/fft/cuda/cufft_transform.cpp
// makes them the same way, its auto-allocation off): per length n and batch, the data's size and each
// plan's work area in MB. Build and run on a GPU machine: tools/gpu/memory.sh.
#include <cufft.h>

#include <cstdio>

int main() {
  const int lengths[] = {8, 10, 14, 22, 26, 32, 34, 38, 64, 96, 128, 192, 194, 256, 384, 502, 512};
  const int batches[] = {1000, 4096, 16384, 65536, 147456};
  std::printf("n lines data_MB d2z_work_MB z2d_work_MB\n");
  for (int n : lengths)
    for (int lines : batches) {
      int len = n;
      const int half = n / 2 + 1;
      std::size_t forward_bytes = 0, backward_bytes = 0;
      cufftHandle forward, backward;
      cufftCreate(&forward);
      cufftCreate(&backward);
      cufftSetAutoAllocation(forward, 0);
      cufftSetAutoAllocation(backward, 0);
      const int made = cufftMakePlanMany(forward, 1, &len, nullptr, 1, len, nullptr, 1, half, CUFFT_D2Z, lines,
                                         &forward_bytes) == CUFFT_SUCCESS &&
                       cufftMakePlanMany(backward, 1, &len, nullptr, 1, half, nullptr, 1, len, CUFFT_Z2D, lines,
                                         &backward_bytes) == CUFFT_SUCCESS;
      if (made)
        std::printf("%d %d %.3f %.3f %.3f\n", n, lines, 8e-6 * lines * n, 1e-6 * forward_bytes, 1e-6 * backward_bytes);
      else
        std::printf("%d %d plan failed\n", n, lines);
      cufftDestroy(forward);
      cufftDestroy(backward);
    }
}
