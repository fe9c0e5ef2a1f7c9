// Device management of the CUDA backend: queries, memory round trips, and the error messages of
// failed runtime calls.
#include <catch2/catch.hpp>

#include "operators/backend/cuda/device.hpp"
#include "operators/backend/work_clock.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

TEST_CASE("the CUDA backend reports its device", "[cuda][device]") {
  CHECK(cuda::built());
  REQUIRE(cuda::device_count() > 0);
  CHECK_FALSE(cuda::device_name(0).empty());
  CHECK(cuda::free_memory(0) > 0);
  const Executor exec = Executor::cuda();
  CHECK(exec.backend() == Backend::cuda);
  CHECK(exec.stream() != nullptr);
}

TEST_CASE("host to device, device to device and device to host copies round-trip", "[cuda][device]") {
  const Executor exec = Executor::cuda();
  const std::vector<double> host = test::random_vector(test::large_n, 11);
  const Vector a = Vector::from_host(exec, host);
  Vector b(exec, a.size());
  exec.copy(b.data(), a.data(), sizeof(double) * host.size());
  CHECK(b.to_host() == host);
}

TEST_CASE("large copies, staged through pinned buffers, round-trip at odd sizes and offsets", "[cuda][device]") {
  const Executor exec = Executor::cuda();
  // About 100 MB: several staging chunks and a partial last one.
  const index_t n = 13'000'000 + 12345;
  const std::vector<double> first = test::random_vector(n, 21), second = test::random_vector(n, 22);
  // Back to back: the second copy refills the staging buffers while the first's may still be on its way.
  const Vector a = Vector::from_host(exec, first), b = Vector::from_host(exec, second);
  CHECK(a.to_host() == first);
  CHECK(b.to_host() == second);
  // Into and out of a window that starts at an odd element, from host memory that does too.
  Vector c(exec, n);
  const std::size_t bytes = sizeof(double) * static_cast<std::size_t>(n - 3);
  exec.copy_from_host(c.data() + 1, first.data() + 3, bytes);
  std::vector<double> back(static_cast<std::size_t>(n - 3));
  exec.copy_to_host(back.data(), c.data() + 1, bytes);
  CHECK(back == std::vector<double>(first.begin() + 3, first.end()));
}

TEST_CASE("a work clock times stretches of the stream without waiting at its marks", "[cuda][device]") {
  const Executor exec = Executor::cuda();
  const Vector x = Vector::from_host(exec, test::random_vector(test::large_n, 12));
  Vector y = Vector::from_host(exec, test::random_vector(test::large_n, 13));
  WorkClock clock(exec, 3);
  clock.mark(0);
  for (int i = 0; i < 50; ++i) axpby(exec, 0.5, x, 0.5, y);
  clock.mark(1);
  clock.mark(2);  // nothing queued in between
  const double work = clock.seconds(0, 1), idle = clock.seconds(1, 2), both = clock.seconds(0, 2);
  // 50 AXPYs of large_n doubles move 50 × 24 × large_n bytes: far above an empty stretch.
  CHECK(work > 0);
  CHECK(idle < 0.1 * work);
  CHECK(both == Approx(work + idle).epsilon(1e-3));
}

TEST_CASE("a failed runtime call names the call, the file and CUDA's reason", "[cuda][device]") {
  // Device -1 never exists; the error is not sticky, so later tests are unaffected.
  CHECK_THROWS_AS(cuda::device_name(-1), Error);
  CHECK_THROWS_WITH(cuda::device_name(-1), Catch::Contains("cudaGetDeviceProperties") &&
                                               Catch::Contains("device.cu:") && Catch::Contains("invalid device"));
}

TEST_CASE("an allocation larger than the device reports the size and the free memory", "[cuda][device]") {
  const std::size_t huge = std::size_t{1} << 60;
  CHECK_THROWS_WITH(cuda::allocate(0, huge), Catch::Contains(std::to_string(huge) + " bytes") &&
                                                 Catch::Contains("bytes free"));
  // The failure is cleared: the device still works.
  const Executor exec = Executor::cuda();
  const Vector v = Vector::from_host(exec, std::vector<double>{1.0, 2.0});
  CHECK(v.to_host() == std::vector<double>{1.0, 2.0});
}

}  // namespace
}  // namespace miniapp
