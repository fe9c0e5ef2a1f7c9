#pragma once
#include <span>
#include <vector>

#include "operators/backend/array.hpp"

namespace miniapp::time {

// The small results of several observers' kernels (sums, maxima, samples at a few cells) side by side
// in one buffer on the executor, read back together: one host read for a whole diagnostics row. A
// host read waits for everything queued before it; the kernels of a row queued back to back and read
// once keep the stream busy, where a read per observer would drain it and restart it each time.
class ResultBatch {
 public:
  // Entries [first, first + count) of the buffer.
  struct Slot {
    index_t first = 0, count = 0;
  };

  ResultBatch(const Executor& exec, index_t capacity);

  // The next `count` entries for kernels to write; throws when they exceed the capacity.
  Slot reserve(index_t count);
  // The entries of `slot` on the executor (a window: no copy).
  Vector window(Slot slot) { return results_.window(slot.first, slot.count); }
  // Reads every entry reserved so far at once (one host read) and starts the next batch: the values
  // stay readable by values() until the next read().
  void read();
  // The entries of `slot` as the last read() found them.
  std::span<const double> values(Slot slot) const;

 private:
  Vector results_;
  index_t reserved_ = 0;
  std::vector<double> host_;
};

}  // namespace miniapp::time
