// Exceptions inside OpenMP regions (core/parallel_exceptions.hpp): kept and rethrown after the region,
// with every thread still meeting the region's barriers; csr_from_rows, which builds the set-up's
// matrices in such a region, reports an allocation that fails in a row function.
#include <catch2/catch.hpp>

#include <omp.h>

#include <atomic>
#include <new>
#include <stdexcept>
#include <string>

#include "core/parallel_exceptions.hpp"
#include "operators/sparse/csr_rows.hpp"

namespace miniapp {
namespace {

TEST_CASE("An exception of one thread is rethrown after the region, the others pass its barrier", "[parallel-exceptions]") {
  ParallelExceptions errors;
  std::atomic<int> after_barrier{0}, skipped{0};
  int team = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp single
    team = omp_get_num_threads();
    errors.guard([&] {
      if (omp_get_thread_num() == 2) throw std::bad_alloc();
    });
#pragma omp barrier
    after_barrier += 1;
    // Every thread sees the failure once they have met: later work is skipped.
    bool ran = false;
    errors.guard([&] { ran = true; });
    if (!ran) skipped += 1;
  }
  REQUIRE(team > 1);
  CHECK(after_barrier == team);
  CHECK(skipped == team);
  CHECK(errors.failed());
  CHECK_THROWS_AS(errors.rethrow(), std::bad_alloc);
}

TEST_CASE("A team of one thread rethrows too, and the first exception wins", "[parallel-exceptions]") {
  ParallelExceptions errors;
#pragma omp parallel num_threads(1)
  {
    errors.guard([] { throw std::runtime_error("first"); });
    errors.guard([] { throw std::runtime_error("second"); });
  }
  CHECK_THROWS_WITH(errors.rethrow(), "first");
  ParallelExceptions none;
#pragma omp parallel num_threads(2)
  none.guard([] {});
  CHECK_FALSE(none.failed());
  CHECK_NOTHROW(none.rethrow());
}

TEST_CASE("Work inside guard is known as guarded (the replaced operator new asks)", "[parallel-exceptions]") {
  CHECK_FALSE(ParallelExceptions::guarding());
  ParallelExceptions errors;
  bool inside = false;
  errors.guard([&] { inside = ParallelExceptions::guarding(); });
  CHECK(inside);
  errors.guard([] { throw std::bad_alloc(); });
  CHECK_FALSE(ParallelExceptions::guarding());  // also after an exception
}

TEST_CASE("Numbered pieces keep the lowest-numbered exception, as a loop in order would throw", "[parallel-exceptions]") {
  for (const int threads : {1, 2, 3, 4}) {
    INFO(threads << " threads");
    ParallelExceptions errors;
    std::atomic<int> ran_after{0};
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int i = 0; i < 100; ++i)
      errors.guard_at(i, [&] {
        if (i == 37 || i == 61 || i == 90) throw std::runtime_error("piece " + std::to_string(i));
        if (i > 37) ran_after += 1;
      });
    CHECK_THROWS_WITH(errors.rethrow(), "piece 37");
    if (threads == 1) CHECK(ran_after == 0);  // in order, nothing after the first failure runs
  }
}

TEST_CASE("csr_from_rows rethrows the lowest row's exception whatever the thread count", "[parallel-exceptions]") {
  const int max_threads = omp_get_max_threads();
  for (const int threads : {1, 2, 3}) {
    INFO(threads << " threads");
    omp_set_num_threads(threads);
    CHECK_THROWS_WITH(csr_from_rows(1000, 1000,
                                    [] {
                                      return [](index_t r, RowEntries& out) {
                                        if (r == 300 || r == 900) throw std::runtime_error("row " + std::to_string(r));
                                        out.push(r, 1.0);
                                      };
                                    }),
                      "row 300");
  }
  omp_set_num_threads(max_threads);
}

TEST_CASE("csr_from_rows rethrows an allocation failure of a row function or of its maker", "[parallel-exceptions]") {
  const int max_threads = omp_get_max_threads();
  const index_t rows = 1000;
  const auto diagonal = [](index_t r, RowEntries& out) { out.push(r, 1.0); };
  CHECK(csr_from_rows(rows, rows, [&] { return diagonal; }).nnz() == rows);
  for (const int threads : {1, 2, 3}) {
    INFO(threads << " threads");
    omp_set_num_threads(threads);
    CHECK_THROWS_AS(csr_from_rows(rows, rows,
                                  [&] {
                                    return [&](index_t r, RowEntries& out) {
                                      if (r == 777) throw std::bad_alloc();
                                      diagonal(r, out);
                                    };
                                  }),
                    std::bad_alloc);
    CHECK_THROWS_AS(csr_from_rows(rows, rows,
                                  [&]() -> decltype(diagonal) {
                                    if (omp_get_thread_num() == threads - 1) throw std::bad_alloc();
                                    return diagonal;
                                  }),
                    std::bad_alloc);
  }
  omp_set_num_threads(max_threads);
}

}  // namespace
}  // namespace miniapp
