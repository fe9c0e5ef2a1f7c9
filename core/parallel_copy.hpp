#pragma once
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace miniapp {

// memcpy of a large block split over the OpenMP threads in 1 MiB pieces: the threads fault the
// destination's new pages in parallel (and, on a NUMA host, place them by their static shares, as the
// kernels' loops split their work) and together copy faster than one. A block of fewer than four
// pieces, or a call from inside a parallel region, is one memcpy.
inline void copy_in_parallel(void* dst, const void* src, std::size_t bytes) {
  constexpr std::size_t piece = std::size_t{1} << 20;
  if (bytes < 4 * piece || omp_in_parallel()) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const auto pieces = static_cast<std::int64_t>((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < pieces; ++k) {
    const std::size_t at = static_cast<std::size_t>(k) * piece;
    std::memcpy(static_cast<char*>(dst) + at, static_cast<const char*>(src) + at, std::min(piece, bytes - at));
  }
}

}  // namespace miniapp
