// BackgroundExecutor: which backends are made on a thread of their own, the OpenMP core it leaves
// that thread until take(), and errors of either kind of making.
#include <catch2/catch.hpp>

#include <omp.h>

#include "miniapp/run/rank_executor.hpp"
#include "operators/backend/cuda/device.hpp"

namespace miniapp::run {
namespace {

// Sets the caller's OpenMP threads for one test and puts them back.
class OpenMpThreads {
 public:
  explicit OpenMpThreads(int n) : before_(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~OpenMpThreads() { omp_set_num_threads(before_); }
  OpenMpThreads(const OpenMpThreads&) = delete;
  OpenMpThreads& operator=(const OpenMpThreads&) = delete;

 private:
  int before_;
};

TEST_CASE("The CPU backend is made at once and keeps every thread", "[run]") {
  const OpenMpThreads threads(4);
  BackgroundExecutor backend("cpu", nullptr);
  CHECK(omp_get_max_threads() == 4);
  CHECK(backend.take().backend() == Backend::cpu);
  CHECK(omp_get_max_threads() == 4);
}

TEST_CASE("Another backend leaves its thread a core until taken, on a CUDA build with four threads or more", "[run]") {
  for (const int n : {2, 3, 4, 6}) {
    const OpenMpThreads threads(n);
    BackgroundExecutor backend("auto", nullptr);
    const bool in_background = cuda::built() && n >= 4;
    CAPTURE(n, cuda::built());
    CHECK(omp_get_max_threads() == (in_background ? n - 1 : n));
    const Executor exec = backend.take();
    CHECK(exec.backend() == (cuda::device_count() > 0 ? Backend::cuda : Backend::cpu));
    CHECK(omp_get_max_threads() == n);
  }
}

TEST_CASE("The core comes back when the executor is never taken (the mesh failed)", "[run]") {
  const OpenMpThreads threads(4);
  { BackgroundExecutor backend("auto", nullptr); }
  CHECK(omp_get_max_threads() == 4);
}

TEST_CASE("An unknown backend is refused, at once or by take(), and the core comes back", "[run]") {
  const OpenMpThreads threads(4);
  const auto make_and_take = [] {
    BackgroundExecutor backend("gpu", nullptr);
    return backend.take();
  };
  CHECK_THROWS_WITH(make_and_take(), Catch::Contains("unknown backend 'gpu'"));
  CHECK(omp_get_max_threads() == 4);
}

}  // namespace
}  // namespace miniapp::run
