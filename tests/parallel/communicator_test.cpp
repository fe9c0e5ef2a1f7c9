#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "parallel/communicator.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

TEST_CASE("allreduce sums, minimises and maximises every entry over ranks", "[mpi][communicator]") {
  const Communicator comm;
  const int p = comm.size(), r = comm.rank();
  std::vector<double> v{double(r), 1.0, -double(r)};
  comm.allreduce(v, ReduceOp::sum);
  CHECK(v == std::vector<double>{p * (p - 1) / 2.0, double(p), -p * (p - 1) / 2.0});
  CHECK(comm.allreduce(double(r), ReduceOp::min) == 0.0);
  CHECK(comm.allreduce(double(r), ReduceOp::max) == double(p - 1));
  CHECK(comm.allreduce(static_cast<long long>(r) + 1, ReduceOp::sum) == static_cast<long long>(p) * (p + 1) / 2);
}

TEST_CASE("broadcast copies the root's values and string to every rank", "[mpi][communicator]") {
  const Communicator comm;
  const int root = comm.size() - 1;
  std::vector<int> v{comm.rank(), 7};
  comm.broadcast(std::span<int>(v), root);
  CHECK(v == std::vector<int>{root, 7});
  std::string text = comm.rank() == root ? "from the last rank" : "x";
  comm.broadcast(text, root);
  CHECK(text == "from the last rank");
}

TEST_CASE("check_collectively passes when every rank is ok", "[mpi][communicator]") {
  const Communicator comm;
  CHECK_NOTHROW(comm.check_collectively(true, "unused"));
}

TEST_CASE("a failure seen by one rank only makes every rank throw its message", "[mpi][communicator]") {
  const Communicator comm;
  const int failing = comm.size() > 1 ? 1 : 0;
  // One rank names no rank.
  const std::string prefix = comm.size() > 1 ? "rank " + std::to_string(failing) + ": " : "";
  const std::string expected = prefix + "bad input in case.toml";
  CHECK_THROWS_WITH(comm.check_collectively(comm.rank() != failing, "bad input in case.toml"), expected);
  // The lowest failing rank's message wins when several fail.
  CHECK_THROWS_WITH(comm.check_collectively(false, "own message " + std::to_string(comm.rank())),
                    (comm.size() > 1 ? "rank 0: " : "") + std::string("own message 0"));
  // The communicator is still usable afterwards: nobody is left waiting.
  CHECK(comm.allreduce(1.0, ReduceOp::sum) == double(comm.size()));
}

TEST_CASE("run_collectively turns one rank's exception into the same Error everywhere", "[mpi][communicator]") {
  const Communicator comm;
  const int failing = comm.size() - 1;
  auto step = [&] {
    if (comm.rank() == failing) throw std::runtime_error("mesh file truncated at line 12");
  };
  CHECK_THROWS_AS(comm.run_collectively(step), Error);
  CHECK_THROWS_WITH(comm.run_collectively(step),
                    (comm.size() > 1 ? "rank " + std::to_string(failing) + ": " : std::string()) +
                        "mesh file truncated at line 12");
  CHECK_NOTHROW(comm.run_collectively([] {}));
}
