// Entry point of every CUDA test executable: exits with 77 (CTest's "skipped") when no device is
// visible, so a CPU-only CI machine reports the suite as skipped instead of failed.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <iostream>

#include "operators/backend/cuda/device.hpp"

int main(int argc, char* argv[]) {
  if (miniapp::cuda::device_count() == 0) {
    std::cout << argv[0] << ": no CUDA device visible, skipped\n";
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
