#pragma once
// Runs of one computation on different OpenMP thread counts, for the tests that require a result
// independent of the thread count (bit for bit).
#include <omp.h>

#include <utility>

namespace miniapp::test {

// f() on 1 thread and on 3 (the caller's thread count restored after).
template <class F>
auto on_one_and_three_threads(F f) {
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  auto one = f();
  omp_set_num_threads(3);
  auto three = f();
  omp_set_num_threads(threads);
  return std::make_pair(std::move(one), std::move(three));
}

}  // namespace miniapp::test
