// WorkClock on the CPU backend: the wall clock between marks (the CUDA side is tests/cuda/device_test.cpp).
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "operators/backend/work_clock.hpp"

using namespace miniapp;

TEST_CASE("A work clock on the CPU times the wall clock between its marks", "[executor]") {
  WorkClock clock(Executor::cpu(), 3);
  clock.mark(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  clock.mark(1);
  clock.mark(2);
  CHECK(clock.seconds(0, 1) >= 0.02);
  CHECK(clock.seconds(1, 2) < clock.seconds(0, 1));
  CHECK(clock.seconds(0, 2) == Approx(clock.seconds(0, 1) + clock.seconds(1, 2)).epsilon(1e-12));
  CHECK_THROWS(clock.mark(3));  // out of range
}
