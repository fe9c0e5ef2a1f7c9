#include "miniapp/time/result_batch.hpp"

#include <string>

namespace miniapp::time {

ResultBatch::ResultBatch(const Executor& exec, index_t capacity) : results_(exec, capacity) {}

ResultBatch::Slot ResultBatch::reserve(index_t count) {
  if (count < 0 || count > results_.size() - reserved_)
    throw Error("ResultBatch: " + std::to_string(count) + " more results after " + std::to_string(reserved_) +
                ", more than the " + std::to_string(results_.size()) + " it holds");
  const Slot slot{reserved_, count};
  reserved_ += count;
  return slot;
}

void ResultBatch::read() {
  host_ = reserved_ > 0 ? results_.window(0, reserved_).to_host() : std::vector<double>{};
  reserved_ = 0;
}

std::span<const double> ResultBatch::values(Slot slot) const {
  if (slot.first + slot.count > static_cast<index_t>(host_.size()))
    throw Error("ResultBatch: entries [" + std::to_string(slot.first) + ", " + std::to_string(slot.first + slot.count) +
                ") were not read");
  return std::span<const double>(host_).subspan(static_cast<std::size_t>(slot.first), static_cast<std::size_t>(slot.count));
}

}  // namespace miniapp::time
