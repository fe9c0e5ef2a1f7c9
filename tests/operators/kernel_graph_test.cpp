// KernelGraph on the CPU backend: nothing can be recorded there, so record must say so without
// running the work or touching the counters, and the caller's plain run is the only run.
#include <catch2/catch.hpp>

#include "operators/backend/kernel_graph.hpp"
#include "operators/kernels/vector_ops.hpp"

using namespace miniapp;

TEST_CASE("KernelGraph records nothing on the CPU and leaves work and counters alone", "[graph]") {
  const Executor exec = Executor::cpu();
  Vector y = Vector::from_host(exec, std::vector<double>{1.0, 2.0, 3.0});
  KernelGraph graph(exec);
  exec.counters().reset();
  int calls = 0;
  CHECK_FALSE(graph.record([&] {
    ++calls;
    fill(exec, 0.0, y);
  }));
  CHECK(calls == 0);
  CHECK(y.to_host() == std::vector<double>{1.0, 2.0, 3.0});
  CHECK(exec.counters().total().calls == 0);
  CHECK_FALSE(graph.reusable());
  CHECK_THROWS_WITH(graph.replay(), Catch::Contains("nothing recorded"));
}
