#pragma once
#include <atomic>
#include <exception>
#include <limits>
#include <mutex>
#include <utility>

namespace miniapp {

// Exceptions inside an OpenMP parallel region. One may not leave the region (the process would end in
// std::terminate, and an out-of-memory error would lose its message), so a region whose work may throw
// (an allocation that fails, a row's error) runs each piece of it through guard(): one exception is
// kept, the pieces after it are skipped, and rethrow() throws it once the region has ended. Every
// thread still reaches each barrier and worksharing loop of the region; work after a barrier that
// needs the pieces before it checks failed() (the same on every thread once they have met there).
// guard_at(i, …) numbers the pieces as a sequential loop would run them: the exception kept is then
// that of the lowest number, the one the loop in order would have thrown, whatever the thread count.
//
//   ParallelExceptions errors;
//   #pragma omp parallel for
//   for (index_t r = 0; r < rows; ++r) errors.guard_at(r, [&] { build_row(r); });
//   errors.rethrow();
class ParallelExceptions {
 public:
  // The first exception of any thread is kept.
  template <class Work>
  void guard(Work&& work) noexcept {
    guard_at(unordered, std::forward<Work>(work));
  }
  // Skipped when a piece numbered `order` or lower has failed; of the pieces that fail, the lowest
  // numbered one's exception is kept.
  template <class Work>
  void guard_at(long long order, Work&& work) noexcept {
    if (order >= failed_order_.load(std::memory_order_acquire)) return;
    ++guarded_depth();
    try {
      work();
    } catch (...) {
      keep(order, std::current_exception());
    }
    --guarded_depth();
  }
  bool failed() const noexcept { return failed_order_.load(std::memory_order_acquire) != none; }
  // Throws the exception kept, if any (after the region, on the thread that entered it).
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

  // Whether the calling thread runs work of guard(): an exception it throws is caught there (the
  // replaced operator new asks, to tell such work from an unguarded region, whose failure must end the
  // process with a message of its own).
  static bool guarding() noexcept { return guarded_depth() > 0; }

 private:
  static constexpr long long none = std::numeric_limits<long long>::max();
  static constexpr long long unordered = none - 1;

  static int& guarded_depth() noexcept {
    thread_local int depth = 0;
    return depth;
  }
  void keep(long long order, std::exception_ptr e) noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    // The order is published only after its exception is stored.
    if (order < failed_order_.load(std::memory_order_relaxed)) {
      first_ = std::move(e);
      failed_order_.store(order, std::memory_order_release);
    }
  }

  std::mutex mutex_;
  std::atomic<long long> failed_order_{none};
  std::exception_ptr first_;
};

}  // namespace miniapp
