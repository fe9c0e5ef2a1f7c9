#pragma once
#include "operators/backend/executor.hpp"

namespace miniapp::bench {

// The attainable memory bandwidth of the executor's memory in GB/s (10⁹ bytes/s): the median over
// `repeat` timed copies y = x of two arrays far larger than the caches (2^25 doubles = 256 MiB each,
// or twice the CPU's L3 where that is larger), counting 2 × the array size per copy (read + write).
// CPU: an OpenMP loop with the same static schedule and first touch as the kernels; CUDA:
// Executor::copy between device arrays, timed by CUDA events like the kernels.
double copy_bandwidth(const Executor& exec, int repeat);

}  // namespace miniapp::bench
