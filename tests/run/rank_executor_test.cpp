// The backend of a one-rank run is made on a thread of its own while the mesh is built
// (begin_rank_executor): the same executor as made at once, and a build without CUDA still refuses
// --backend cuda before any work.
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "miniapp/run/rank_executor.hpp"
#include "operators/backend/cuda/device.hpp"

namespace miniapp::run {

TEST_CASE("A one-rank backend begun while the mesh is built is the one made at once", "[run][backend]") {
  SECTION("cpu") {
    std::future<Executor> begun = begin_rank_executor("cpu", nullptr);
    REQUIRE(begun.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    CHECK(begun.get().backend() == Backend::cpu);
  }
  SECTION("auto") {
    const Executor exec = begin_rank_executor("auto", nullptr).get();
    CHECK(exec.backend() == (cuda::built() && cuda::device_count() > 0 ? Backend::cuda : Backend::cpu));
  }
  SECTION("cuda") {
    if (!cuda::built()) {
      // Refused by the call itself, not later through the future.
      CHECK_THROWS_WITH(begin_rank_executor("cuda", nullptr), Catch::Contains("built without the CUDA backend"));
    } else if (cuda::device_count() == 0) {
      std::future<Executor> begun = begin_rank_executor("cuda", nullptr);
      CHECK_THROWS_WITH(begun.get(), Catch::Contains("no CUDA device is visible"));
    } else {
      const Executor exec = begin_rank_executor("cuda", nullptr).get();
      CHECK(exec.backend() == Backend::cuda);
      CHECK(exec.device() == 0);
    }
  }
  SECTION("an unknown name") {
    const auto make = [] { return begin_rank_executor("gpu", nullptr).get(); };
    CHECK_THROWS_WITH(make(), Catch::Contains("unknown backend 'gpu'"));
  }
}

}  // namespace miniapp::run
