#pragma once
#include "core/types.hpp"

namespace miniapp::cpu {

// Below this many entries a kernel runs on one thread (OpenMP `if` clause): forking and joining a
// parallel region costs microseconds, more than such a loop, and far more when a core is shared with
// another process (every thread of the region waits at the barrier for a descheduled one). The time
// loop of a small mesh makes hundreds of kernel calls per step.
inline constexpr index_t min_parallel_entries = 50'000;

inline bool worth_parallel(index_t entries) { return entries >= min_parallel_entries; }

}  // namespace miniapp::cpu
