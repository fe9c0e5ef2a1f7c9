#pragma once
#include <algorithm>
#include <cstdint>

#include "operators/backend/device_matrix.hpp"

// Plain views handed by the batched front ends (batched_kernels.hpp) to their backends.
namespace miniapp::fft {

// N rows × S interleaved systems ([c · S + s]); the kernel covers systems [begin, end).
struct BatchedShape {
  index_t rows, systems, begin, end;
  index_t width() const { return end - begin; }
};

// Tiles of rows over which the column sums of the batched kernels are formed: each tile's partial sum
// of every system, then the tiles' partials in tile order (batched_column_sums). The tiling depends on
// the backend and the row count only, so a sum is the same whichever kernel formed its partials, on
// any thread count. Large planes are cut into max_row_tiles tiles, small ones into tiles of
// min_tile_rows: 16 on CUDA, so that a small plane's kernels still run on enough blocks, 32 on the
// CPU, where a tile is a thread's unit of work.
struct RowTiles {
  index_t rows_per_tile, count;
};
inline constexpr index_t max_row_tiles = 512;
inline constexpr index_t min_tile_rows(Backend backend) { return backend == Backend::cuda ? 16 : 32; }
inline RowTiles row_tiles(Backend backend, index_t rows) {
  const std::int64_t per =
      std::max<std::int64_t>(min_tile_rows(backend), (std::int64_t{rows} + max_row_tiles - 1) / max_row_tiles);
  return {static_cast<index_t>(per), static_cast<index_t>((std::int64_t{rows} + per - 1) / per)};
}
// The tiles [first, end) of a tiling: the rows they hold, [first · rows_per_tile, min(end · rows_per_tile, N)).
struct TileSpan {
  index_t first, end;
  bool empty() const { return end <= first; }
};

// A + σ_s diag(w): pointers into executor memory. shifts == nullptr: the plain A.
struct ShiftedPointers {
  CsrView a;
  const double* diagonal;
  const double* w;
  const double* shifts;
};

// The vectors of the fused CG update (batched_cg_update_jacobi): alpha per system, the others N · S.
struct CgUpdateVectors {
  const double* alpha;
  const double* p;
  const double* q;
  double* x;
  double* r;
};

// The vectors of the new search directions (batched_direction_jacobi): beta per system, the others N · S.
struct DirectionVectors {
  const double* beta;
  const double* z;
  const double* r;
  double* p;
};

}  // namespace miniapp::fft
