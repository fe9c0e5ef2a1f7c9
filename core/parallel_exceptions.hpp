#pragma once
#include <atomic>
#include <exception>

namespace miniapp {

// Exceptions inside an OpenMP parallel region. One may not leave the region (the process would end in
// std::terminate, and an out-of-memory error would lose its message), so a region whose work may throw
// (an allocation that fails) runs each piece of it through guard(): the first exception of any thread
// is kept, the pieces after it are skipped, and rethrow() throws it once the region has ended. Every
// thread still reaches each barrier and worksharing loop of the region; work after a barrier that
// needs the pieces before it checks failed() (the same on every thread once they have met there).
//
//   ParallelExceptions errors;
//   #pragma omp parallel for
//   for (index_t r = 0; r < rows; ++r) errors.guard([&] { build_row(r); });
//   errors.rethrow();
class ParallelExceptions {
 public:
  template <class Work>
  void guard(Work&& work) noexcept {
    if (failed()) return;
    ++guarded_depth();
    try {
      work();
    } catch (...) {
      keep(std::current_exception());
    }
    --guarded_depth();
  }
  bool failed() const noexcept { return failed_.load(std::memory_order_acquire); }
  // Throws the first exception kept, if any (after the region, on the thread that entered it).
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

  // Whether the calling thread runs work of guard(): an exception it throws is caught there (the
  // replaced operator new asks, to tell such work from an unguarded region, whose failure must end the
  // process with a message of its own).
  static bool guarding() noexcept { return guarded_depth() > 0; }

 private:
  static int& guarded_depth() noexcept {
    thread_local int depth = 0;
    return depth;
  }
  void keep(std::exception_ptr e) noexcept {
    bool expected = false;
    // The first thread to fail stores its exception; the flag is set only after it is stored.
    if (claimed_.compare_exchange_strong(expected, true)) {
      first_ = std::move(e);
      failed_.store(true, std::memory_order_release);
    }
  }

  std::atomic<bool> claimed_{false}, failed_{false};
  std::exception_ptr first_;
};

}  // namespace miniapp
