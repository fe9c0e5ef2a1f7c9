#pragma once
#include <cstdint>
#include <limits>
#include <string>

#include "core/error.hpp"

namespace miniapp {

// Row, column and entity indices. 32 bits halve the index traffic of SpMV against 64; a rank holds at
// most 2^31 - 1 entries of any array (checked where arrays are built, see checked_index).
using index_t = std::int32_t;

// Converts a size to index_t, failing with `what` in the message when it does not fit.
inline index_t checked_index(std::size_t n, const std::string& what) {
  if (n > static_cast<std::size_t>(std::numeric_limits<index_t>::max()))
    throw Error(what + ": " + std::to_string(n) + " exceeds the 32-bit index range of one rank");
  return static_cast<index_t>(n);
}

}  // namespace miniapp
