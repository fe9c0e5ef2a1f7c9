#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "operators/backend/array.hpp"

namespace miniapp::bench {

// n values uniform in [0.5, 1.5] from a fixed seed: benchmark operands that are never zero, so that
// no kernel or memory system takes a shortcut on them.
inline std::vector<double> random_values(index_t n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> value(0.5, 1.5);
  std::vector<double> host(static_cast<std::size_t>(n));
  for (double& v : host) v = value(engine);
  return host;
}

// The same values on `exec`.
inline Vector random_vector(const Executor& exec, index_t n, std::uint64_t seed) {
  return Vector::from_host(exec, random_values(n, seed));
}

}  // namespace miniapp::bench
